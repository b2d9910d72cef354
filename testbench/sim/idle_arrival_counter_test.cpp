#include <catch2/catch.hpp>

#include "output/idle_arrival_counter.h"

using namespace ufs;

TEST_CASE("idle arrivals: a request meets an idle device only when nothing is outstanding at its arrival",
          "[output][idle]") {
  IdleArrivalCounter c;
  c.on_issue(0);        // idle: first request
  c.on_issue(10);       // busy: the first is outstanding
  c.on_complete(50);
  c.on_complete(60);
  c.on_issue(55);       // arrived at 55, before the last completion (60): it waited
  c.on_complete(70);
  c.on_issue(100);      // idle again
  c.on_complete(120);
  CHECK(c.requests() == 4);
  CHECK(c.idle_arrivals() == 2);
  CHECK(c.fraction() == Approx(0.5));
  c.on_issue(130);      // outstanding across the reset
  c.reset_counts();
  CHECK(c.requests() == 0);
  c.on_issue(140);      // busy: the one issued at 130 is still outstanding
  CHECK(c.idle_arrivals() == 0);
  CHECK(c.requests() == 1);
}
