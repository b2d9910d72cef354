#include "gc/victim_policy.h"

namespace ufs {

namespace {
struct Entry {
  const char* name;  // firmware.gc_victim
  std::unique_ptr<VictimPolicy> (*make)(const VictimPolicyContext&);
};
// The registry: a new policy is one line here.
const Entry kPolicies[] = {
    {"greedy", make_greedy_victims},
    {"cost-benefit", make_cost_benefit_victims},
    {"randomized-greedy", make_randomized_greedy_victims},
    {"fifo", make_fifo_victims},
};
}  // namespace

std::unique_ptr<VictimPolicy> make_victim_policy(const std::string& name, const VictimPolicyContext& ctx) {
  for (const Entry& e : kPolicies)
    if (name == e.name) return e.make(ctx);
  return nullptr;
}

bool is_victim_policy(const std::string& name) {
  for (const Entry& e : kPolicies)
    if (name == e.name) return true;
  return false;
}

std::string victim_policy_names() {
  std::string out;
  for (const Entry& e : kPolicies) out += (out.empty() ? "" : " | ") + std::string(e.name);
  return out;
}

}  // namespace ufs
