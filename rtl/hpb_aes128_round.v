// One AES-128 encryption round together with the on-the-fly key-schedule step
// that produces this round's key (FIPS-197 sections 5.1 and 5.2).
//
//   key_out   = KeyExpansion step of key_in with rcon
//   state_out = AddRoundKey(MixColumns(ShiftRows(SubBytes(state_in))), key_out)
//               (MixColumns skipped when final_round is set: round 10)
//
// Byte order follows FIPS-197: byte 0 of the block is bits [127:120]; the
// state is column-major (bytes 0..3 are column 0).  Purely combinational.
module hpb_aes128_round (
    input  wire [127:0] state_in,
    input  wire [127:0] key_in,       // previous round key (the cipher key for round 1)
    input  wire [7:0]   rcon,         // round constant of this round
    input  wire         final_round,  // round 10: no MixColumns
    output wire [127:0] key_out,      // this round's key
    output wire [127:0] state_out
);
  // ---------------- key schedule step ----------------
  wire [31:0] w0 = key_in[127:96];
  wire [31:0] w1 = key_in[95:64];
  wire [31:0] w2 = key_in[63:32];
  wire [31:0] w3 = key_in[31:0];
  wire [31:0] rot = {w3[23:0], w3[31:24]};  // RotWord
  wire [31:0] sub;                           // SubWord(RotWord(w3))
  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_key_sbox
      hpb_aes_sbox u_sbox (.in_byte(rot[8*k+7:8*k]), .out_byte(sub[8*k+7:8*k]));
    end
  endgenerate
  wire [31:0] n0 = w0 ^ sub ^ {rcon, 24'h000000};
  wire [31:0] n1 = w1 ^ n0;
  wire [31:0] n2 = w2 ^ n1;
  wire [31:0] n3 = w3 ^ n2;
  assign key_out = {n0, n1, n2, n3};

  // ---------------- SubBytes ----------------
  wire [127:0] sb;
  genvar b;
  generate
    for (b = 0; b < 16; b = b + 1) begin : g_state_sbox
      hpb_aes_sbox u_sbox (.in_byte(state_in[127-8*b -: 8]), .out_byte(sb[127-8*b -: 8]));
    end
  endgenerate

  // ---------------- ShiftRows ----------------
  // Byte at (row r, column c) = index 4c+r takes the byte at (r, (c+r) mod 4).
  wire [127:0] sr;
  genvar c, r;
  generate
    for (c = 0; c < 4; c = c + 1) begin : g_sr_col
      for (r = 0; r < 4; r = r + 1) begin : g_sr_row
        assign sr[127-8*(4*c+r) -: 8] = sb[127-8*(4*(((c+r)%4))+r) -: 8];
      end
    end
  endgenerate

  // ---------------- MixColumns ----------------
  function automatic [7:0] xtime(input [7:0] a);
    xtime = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
  endfunction

  wire [127:0] mc;
  genvar m;
  generate
    for (m = 0; m < 4; m = m + 1) begin : g_mc_col
      wire [7:0] a0 = sr[127-32*m -: 8];
      wire [7:0] a1 = sr[119-32*m -: 8];
      wire [7:0] a2 = sr[111-32*m -: 8];
      wire [7:0] a3 = sr[103-32*m -: 8];
      assign mc[127-32*m -: 8] = xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3;
      assign mc[119-32*m -: 8] = a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3;
      assign mc[111-32*m -: 8] = a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3;
      assign mc[103-32*m -: 8] = xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3);
    end
  endgenerate

  assign state_out = (final_round ? sr : mc) ^ key_out;
endmodule
