// How a model exposes its parameters to the configuration tree without knowing
// about JSON: each parameter struct has
//     template <class Binder> void bind(Binder& b) {
//       b("t_read_us", t_read_us, "us", "page read time (array to page register)");
//     }
// and `std::string validate() const` that returns "" or "key: what is wrong".
// The config loader (sim/config) walks these to set, check and document every key.
// Supported field types: bool, uint32_t, uint64_t, int64_t, double, std::string.
#pragma once
