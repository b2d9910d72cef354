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
// Not a module: `include'd by hpb_aes128_datapath.v into the module that owns the datapath,
// as the T-box ROM and a task (hpb_aes_round). A task, not a module instance, so that the
// simulation model can run the datapath's logic for several clock edges in one evaluation
// (hpb_crypto_unit.v, SIM_RUN_JOBS); in hardware it is the same combinational round.
//
// SubBytes, ShiftRows and MixColumns are formed per byte with a "T-box" (the table
// formulation of the round, FIPS-197's authors' own): each state byte x goes through one
// 8-bit -> 32-bit lookup T(x) = {2.S(x), S(x), S(x), 3.S(x)}, its S-box value times
// MixColumns' column (2, 1, 1, 3); an output column is the XOR of the four lookups of
// the bytes ShiftRows brings to it, each rotated to its row. The final round takes
// the S-box byte out of the same lookup. A lookup is a 256 x 32 ROM in hardware, and an
// array read in the Verilated model; the key schedule's S-box bytes come from the same ROMs.
`include "hpb_aes_sbox.v"

function automatic [7:0] hpb_xtime(input [7:0] a);
  hpb_xtime = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
endfunction

// The T-box ROMs: T0[x] = {2.S(x), S(x), S(x), 3.S(x)}, and T1, T2, T3 the same entry
// rotated right by 8, 16, 24 bits: the lookup of row r is Tr, so an output column is the
// XOR of four lookups without rotations (in hardware a rotation is wiring and each byte
// lane has its ROM anyway; in the model a rotation is an instruction per lookup).
// Constant: out of waveform traces.
/* verilator tracing_off */
wire [31:0] hpb_tbox0 [0:255];
wire [31:0] hpb_tbox1 [0:255];
wire [31:0] hpb_tbox2 [0:255];
wire [31:0] hpb_tbox3 [0:255];
/* verilator tracing_on */
genvar hpb_tbox_e;
generate
  for (hpb_tbox_e = 0; hpb_tbox_e < 256; hpb_tbox_e = hpb_tbox_e + 1) begin : g_hpb_tbox
    localparam [7:0] S = hpb_aes_sbox(hpb_tbox_e[7:0]);
    localparam [7:0] S2 = hpb_xtime(S);
    localparam [7:0] S3 = hpb_xtime(S) ^ S;
    assign hpb_tbox0[hpb_tbox_e] = {S2, S, S, S3};
    assign hpb_tbox1[hpb_tbox_e] = {S3, S2, S, S};
    assign hpb_tbox2[hpb_tbox_e] = {S, S3, S2, S};
    assign hpb_tbox3[hpb_tbox_e] = {S, S, S3, S2};
  end
endgenerate

task automatic hpb_aes_round(
    input  [31:0] s0, s1, s2, s3,  // state columns in
    input  [31:0] k0, k1, k2, k3,  // previous round key (the cipher key for round 1)
    input  [7:0]  rcon,            // round constant of this round
    input         final_round,     // round 10: no MixColumns
    output [31:0] n0, n1, n2, n3,  // this round's key
    output [31:0] o0, o1, o2, o3   // state columns out
);
  reg [31:0] sub;
  reg [31:0] t00, t01, t02, t03, t10, t11, t12, t13, t20, t21, t22, t23, t30, t31, t32, t33;
  begin
    // Key schedule step: SubWord(RotWord(k3)) ^ {rcon, 0, 0, 0}; each S-box byte is taken
    // from a T-box that has S(x) in that byte.
    sub = {hpb_tbox3[k3[23:16]][31:24], hpb_tbox0[k3[15:8]][23:16],
           hpb_tbox1[k3[7:0]][15:8], hpb_tbox2[k3[31:24]][7:0]};
    n0 = k0 ^ sub ^ {rcon, 24'h000000};
    n1 = k1 ^ n0;
    n2 = k2 ^ n1;
    n3 = k3 ^ n2;
    // SubBytes + ShiftRows + MixColumns: output column c, row r takes the byte at row r
    // of input column (c + r) mod 4, through Tr.
    t00 = hpb_tbox0[s0[31:24]]; t01 = hpb_tbox1[s1[23:16]]; t02 = hpb_tbox2[s2[15:8]]; t03 = hpb_tbox3[s3[7:0]];
    t10 = hpb_tbox0[s1[31:24]]; t11 = hpb_tbox1[s2[23:16]]; t12 = hpb_tbox2[s3[15:8]]; t13 = hpb_tbox3[s0[7:0]];
    t20 = hpb_tbox0[s2[31:24]]; t21 = hpb_tbox1[s3[23:16]]; t22 = hpb_tbox2[s0[15:8]]; t23 = hpb_tbox3[s1[7:0]];
    t30 = hpb_tbox0[s3[31:24]]; t31 = hpb_tbox1[s0[23:16]]; t32 = hpb_tbox2[s1[15:8]]; t33 = hpb_tbox3[s2[7:0]];
    if (final_round) begin
      // SubBytes + ShiftRows only: the S-box byte of each lookup (T0: [23:16], T1: [15:8],
      // T2 and T3: [31:24])
      o0 = n0 ^ {t00[23:16], t01[15:8], t02[31:24], t03[31:24]};
      o1 = n1 ^ {t10[23:16], t11[15:8], t12[31:24], t13[31:24]};
      o2 = n2 ^ {t20[23:16], t21[15:8], t22[31:24], t23[31:24]};
      o3 = n3 ^ {t30[23:16], t31[15:8], t32[31:24], t33[31:24]};
    end else begin
      o0 = n0 ^ t00 ^ t01 ^ t02 ^ t03;
      o1 = n1 ^ t10 ^ t11 ^ t12 ^ t13;
      o2 = n2 ^ t20 ^ t21 ^ t22 ^ t23;
      o3 = n3 ^ t30 ^ t31 ^ t32 ^ t33;
    end
  end
endtask
