// One AES-128 encryption round together with the on-the-fly key-schedule step
// that produces this round's key (FIPS-197 sections 5.1 and 5.2).
//
//   key_out   = KeyExpansion step of key_in with rcon
//   state_out = AddRoundKey(MixColumns(ShiftRows(SubBytes(state_in))), key_out)
//               (MixColumns skipped when final_round is set: round 10)
//
// The block and the key travel as four 32-bit columns (column 0 = bytes 0..3 of the
// block, byte 0 in [31:24], FIPS-197's byte order). Purely combinational.
//
// SubBytes, ShiftRows and MixColumns are formed per byte with a "T-box" (the table
// formulation of the round, FIPS-197's authors' own): each state byte x goes through one
// 8-bit -> 32-bit lookup T(x) = {2.S(x), S(x), S(x), 3.S(x)}, its S-box value times
// MixColumns' column (2, 1, 1, 3); an output column is the XOR of the four lookups of
// the bytes ShiftRows brings to it, each rotated to its row. The final round takes
// the S-box byte out of the same lookup. A lookup is a 256 x 32 ROM in hardware, and an
// array read in the Verilated model.
//
// The module is inlined into its datapath and its nets stay out of waveform traces (the
// datapath's state and round key registers are traced): a traced net must be kept as a
// variable of the Verilated model, so tracing them would make every evaluation store and
// reload them.
/* verilator tracing_off */
module hpb_aes128_round (
    input  wire [31:0] s0, s1, s2, s3,  // state columns in
    input  wire [31:0] k0, k1, k2, k3,  // previous round key (the cipher key for round 1)
    input  wire [7:0]  rcon,            // round constant of this round
    input  wire        final_round,     // round 10: no MixColumns
    output wire [31:0] n0, n1, n2, n3,  // this round's key
    output wire [31:0] o0, o1, o2, o3   // state columns out
);
  /* verilator inline_module */
`include "hpb_aes_sbox.v"

  function automatic [7:0] xtime(input [7:0] a);
    xtime = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
  endfunction

  // The T-box ROM: entry x = {2.S(x), S(x), S(x), 3.S(x)}.
  wire [31:0] tbox [0:255];
  genvar e;
  generate
    for (e = 0; e < 256; e = e + 1) begin : g_rom
      localparam [7:0] S = hpb_aes_sbox(e[7:0]);
      assign tbox[e] = {xtime(S), S, S, xtime(S) ^ S};
    end
  endgenerate

  // ---------------- key schedule step ----------------
  // SubWord(RotWord(k3)) ^ {rcon, 0, 0, 0}: the S-box byte is byte 1 or 2 of a T-box entry.
  wire [31:0] sub = {tbox[k3[23:16]][23:16], tbox[k3[15:8]][23:16],
                     tbox[k3[7:0]][23:16], tbox[k3[31:24]][23:16]};
  assign n0 = k0 ^ sub ^ {rcon, 24'h000000};
  assign n1 = k1 ^ n0;
  assign n2 = k2 ^ n1;
  assign n3 = k3 ^ n2;

  // ---------------- SubBytes + ShiftRows + MixColumns ----------------
  // Output column c, row r takes the byte at row r of input column (c + r) mod 4,
  // its lookup rotated right by 8r.
  function automatic [31:0] ror8(input [31:0] x);
    ror8 = {x[7:0], x[31:8]};
  endfunction
  function automatic [31:0] ror16(input [31:0] x);
    ror16 = {x[15:0], x[31:16]};
  endfunction
  function automatic [31:0] ror24(input [31:0] x);
    ror24 = {x[23:0], x[31:24]};
  endfunction
  wire [31:0] t00 = tbox[s0[31:24]], t01 = tbox[s1[23:16]], t02 = tbox[s2[15:8]], t03 = tbox[s3[7:0]];
  wire [31:0] t10 = tbox[s1[31:24]], t11 = tbox[s2[23:16]], t12 = tbox[s3[15:8]], t13 = tbox[s0[7:0]];
  wire [31:0] t20 = tbox[s2[31:24]], t21 = tbox[s3[23:16]], t22 = tbox[s0[15:8]], t23 = tbox[s1[7:0]];
  wire [31:0] t30 = tbox[s3[31:24]], t31 = tbox[s0[23:16]], t32 = tbox[s1[15:8]], t33 = tbox[s2[7:0]];
  // The final round: SubBytes + ShiftRows only (the S-box byte of each lookup).
  assign o0 = n0 ^ (final_round ? {t00[23:16], t01[23:16], t02[23:16], t03[23:16]}
                                : t00 ^ ror8(t01) ^ ror16(t02) ^ ror24(t03));
  assign o1 = n1 ^ (final_round ? {t10[23:16], t11[23:16], t12[23:16], t13[23:16]}
                                : t10 ^ ror8(t11) ^ ror16(t12) ^ ror24(t13));
  assign o2 = n2 ^ (final_round ? {t20[23:16], t21[23:16], t22[23:16], t23[23:16]}
                                : t20 ^ ror8(t21) ^ ror16(t22) ^ ror24(t23));
  assign o3 = n3 ^ (final_round ? {t30[23:16], t31[23:16], t32[23:16], t33[23:16]}
                                : t30 ^ ror8(t31) ^ ror16(t32) ^ ror24(t33));
endmodule
