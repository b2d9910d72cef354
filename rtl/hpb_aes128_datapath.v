// Iterative / unrolled AES-128 encryption datapath without its own control FSM.
//
// ROUNDS_PER_CYCLE (1, 2, 5 or 10) rounds are chained combinationally; one
// block therefore takes CYCLES_PER_BLOCK = 10 / ROUNDS_PER_CYCLE clock cycles
// after `load`:
//   load    (edge 0): state <= block ^ key (AddRoundKey 0), round key <= key, step <= 0
//   advance (edges 1 .. N-1): state <= ROUNDS_PER_CYCLE more rounds, step++
//   in the cycle where `last` is high, `round_out` is the ciphertext (combinational);
//   the owner either consumes it or loads the next block on that edge.
// The round keys are computed on the fly (no 11 x 128-bit key store); only the
// cipher key is stored, by the owner, and the round constant steps along in an
// 8-bit register (times x in GF(2^8) per round).  `load` has priority over `advance`.
// State and round key are held as 32-bit columns (column 0 = block bytes 0..3).
module hpb_aes128_datapath #(
    parameter integer ROUNDS_PER_CYCLE = 1
) (
    input  wire         clk,
    input  wire         rst_n,
    input  wire         load,
    input  wire [127:0] load_block,
    input  wire         advance,
    input  wire [127:0] key,
    output wire [127:0] round_out,  // state after this cycle's rounds
    output wire         last        // this cycle's rounds end with round 10
);
  localparam integer N = 10 / ROUNDS_PER_CYCLE;  // cycles per block after load
  localparam integer R = ROUNDS_PER_CYCLE;

  generate
    if (ROUNDS_PER_CYCLE != 1 && ROUNDS_PER_CYCLE != 2 &&
        ROUNDS_PER_CYCLE != 5 && ROUNDS_PER_CYCLE != 10) begin : g_bad_param
      $error("hpb_aes128_datapath: ROUNDS_PER_CYCLE must be 1, 2, 5 or 10");
    end
  endgenerate

  function automatic [7:0] xtime(input [7:0] a);
    xtime = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
  endfunction

  reg [31:0] s0, s1, s2, s3;  // state columns
  reg [31:0] k0, k1, k2, k3;  // round key columns
  reg [7:0]  rcon;            // round constant of this cycle's first round
  reg [3:0]  step;

  assign last = (step == 4'(N - 1));

  // Stage i of the chain reads stage i-1's outputs (stage 0 the registers); each stage has
  // nets of its own (one array along the chain would be a combinational loop to Verilator).
  genvar i;
  generate
    for (i = 0; i < R; i = i + 1) begin : g_round
      wire [31:0] i0, i1, i2, i3, j0, j1, j2, j3;  // state and key in
      wire [7:0]  rc;
      wire [31:0] o0, o1, o2, o3, n0, n1, n2, n3;  // state and key out
      if (i == 0) begin : g_first
        assign {i0, i1, i2, i3} = {s0, s1, s2, s3};
        assign {j0, j1, j2, j3} = {k0, k1, k2, k3};
        assign rc = rcon;
      end else begin : g_next
        assign {i0, i1, i2, i3} = {g_round[i-1].o0, g_round[i-1].o1, g_round[i-1].o2, g_round[i-1].o3};
        assign {j0, j1, j2, j3} = {g_round[i-1].n0, g_round[i-1].n1, g_round[i-1].n2, g_round[i-1].n3};
        assign rc = xtime(g_round[i-1].rc);
      end
      // Round 10 is the last stage of the last cycle.
      hpb_aes128_round u_round (
          .s0(i0), .s1(i1), .s2(i2), .s3(i3), .k0(j0), .k1(j1), .k2(j2), .k3(j3),
          .rcon(rc), .final_round((i == R - 1) && last),
          .n0(n0), .n1(n1), .n2(n2), .n3(n3), .o0(o0), .o1(o1), .o2(o2), .o3(o3));
    end
  endgenerate

  wire [31:0] r0 = g_round[R-1].o0, r1 = g_round[R-1].o1, r2 = g_round[R-1].o2, r3 = g_round[R-1].o3;
  assign round_out = {r0, r1, r2, r3};

  // One clocked process, every register reset (one trigger for the Verilated model to test).
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      step <= 4'd0;
      {s0, s1, s2, s3} <= 128'd0;
      {k0, k1, k2, k3} <= 128'd0;
      rcon <= 8'h00;
    end else if (load) begin
      step <= 4'd0;
      s0   <= load_block[127:96] ^ key[127:96];
      s1   <= load_block[95:64] ^ key[95:64];
      s2   <= load_block[63:32] ^ key[63:32];
      s3   <= load_block[31:0] ^ key[31:0];
      k0   <= key[127:96];
      k1   <= key[95:64];
      k2   <= key[63:32];
      k3   <= key[31:0];
      rcon <= 8'h01;
    end else if (advance) begin
      step <= step + 4'd1;
      s0   <= r0;
      s1   <= r1;
      s2   <= r2;
      s3   <= r3;
      k0   <= g_round[R-1].n0;
      k1   <= g_round[R-1].n1;
      k2   <= g_round[R-1].n2;
      k3   <= g_round[R-1].n3;
      rcon <= xtime(g_round[R-1].rc);
    end
  end
endmodule
