// One AES-128 encryption round together with the on-the-fly key-schedule step
// that produces this round's key (FIPS-197 sections 5.1 and 5.2).
//
//   key_out   = KeyExpansion step of key_in with rcon
//   state_out = AddRoundKey(MixColumns(ShiftRows(SubBytes(state_in))), key_out)
//               (MixColumns skipped when final_round is set: round 10)
//
// Byte order follows FIPS-197: byte 0 of the block is bits [127:120]; the
// state is column-major (bytes 0..3 are column 0, bits [127:96]).  Purely combinational.
//
// SubBytes, ShiftRows and MixColumns are formed per byte with a "T-box" (the table
// formulation of the round, FIPS-197's authors' own): each state byte x goes through one
// 8-bit -> 32-bit lookup T(x) = {2.S(x), S(x), S(x), 3.S(x)}, its S-box value times
// MixColumns' column (2, 1, 1, 3); an output column is the XOR of the four lookups of
// the bytes ShiftRows brings to it, each rotated to its row. The final round takes
// the S-box byte out of the same lookup. A lookup is a 256 x 32 ROM in hardware, and an
// always block with an 8-bit input is one table read in the Verilated model.
//
// The round's internal nets stay out of waveform traces (the datapath's state and round
// key registers are traced): a traced net must be kept as a variable of the Verilated
// model, so tracing them would make every evaluation store and reload them.
/* verilator tracing_off */
module hpb_aes128_round (
    input  wire [127:0] state_in,
    input  wire [127:0] key_in,       // previous round key (the cipher key for round 1)
    input  wire [7:0]   rcon,         // round constant of this round
    input  wire         final_round,  // round 10: no MixColumns
    output wire [127:0] key_out,      // this round's key
    output wire [127:0] state_out
);
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
  wire [31:0] w0 = key_in[127:96];
  wire [31:0] w1 = key_in[95:64];
  wire [31:0] w2 = key_in[63:32];
  wire [31:0] w3 = key_in[31:0];
  // SubWord(RotWord(w3)): byte k of the result is the S-box of byte k+1 of w3.
  wire [31:0] sub;
  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_key_sbox
      assign sub[31 - 8*k -: 8] = tbox[w3[31 - 8*((k + 1) % 4) -: 8]][23:16];  // its S-box byte
    end
  endgenerate
  wire [31:0] n0 = w0 ^ sub ^ {rcon, 24'h000000};
  wire [31:0] n1 = w1 ^ n0;
  wire [31:0] n2 = w2 ^ n1;
  wire [31:0] n3 = w3 ^ n2;
  assign key_out = {n0, n1, n2, n3};

  // ---------------- SubBytes + ShiftRows + MixColumns ----------------
  // Output column c, row r takes the byte at row r of input column (c + r) mod 4.
  wire [31:0] mixed [0:3];
  wire [31:0] subst [0:3];  // SubBytes + ShiftRows only (the final round)
  genvar c, r;
  generate
    for (c = 0; c < 4; c = c + 1) begin : g_col
      wire [31:0] t [0:3];
      for (r = 0; r < 4; r = r + 1) begin : g_row
        wire [31:0] tv = tbox[state_in[127 - 32*((c + r) % 4) - 8*r -: 8]];
        // Rotated to row r: T(x) >>> 8r.
        if (r == 0) begin : g_rot0
          assign t[r] = tv;
        end else begin : g_rot
          assign t[r] = {tv[8*r-1:0], tv[31:8*r]};
        end
      end
      assign mixed[c] = t[0] ^ t[1] ^ t[2] ^ t[3];
      assign subst[c] = {t[0][23:16], t[1][15:8], t[2][7:0], t[3][31:24]};
    end
  endgenerate

  wire [31:0] kc [0:3];
  assign kc[0] = n0;
  assign kc[1] = n1;
  assign kc[2] = n2;
  assign kc[3] = n3;
  generate
    for (c = 0; c < 4; c = c + 1) begin : g_out
      assign state_out[127 - 32*c -: 32] = (final_round ? subst[c] : mixed[c]) ^ kc[c];
    end
  endgenerate
endmodule
