// The Verilated rtl/hpb_crypto_unit.v behind the HpbCryptoCore interface. The
// model is clocked only while a job or a register write needs it; idle
// stretches are jumped over (the unit holds its state when idle).
// One Verilated class per ROUNDS_PER_CYCLE setting (Vhpb_crypto_unit_r1/_r2/_r5/_r10),
// built with SIM_RUN_JOBS=1: a job's clock edges run in one evaluation (rtl/README.md).
#pragma once
#include "crypto/hpb_crypto_core.h"

namespace ufs {

// job_per_evaluation: each run() is one evaluation of the model, which runs the job's
// clock edges inside (the unit's SIM_RUN_JOBS model; not while waves are dumped);
// false: one evaluation per clock edge. Same results and cycles either way.
std::unique_ptr<HpbCryptoCore> make_hpb_crypto_rtl_core(uint32_t rounds_per_cycle,
                                                        bool job_per_evaluation = true);

}  // namespace ufs
