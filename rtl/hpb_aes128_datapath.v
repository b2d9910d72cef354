// Iterative / unrolled AES-128 encryption datapath without its own control FSM.
//
// ROUNDS_PER_CYCLE (1, 2, 5 or 10) rounds are chained combinationally; one
// block therefore takes DP_CYCLES = 10 / ROUNDS_PER_CYCLE clock cycles
// after `load`:
//   load    (edge 0): state <= block ^ key (AddRoundKey 0), round key <= key, step <= 0
//   advance (edges 1 .. N-1): state <= ROUNDS_PER_CYCLE more rounds, step++
//   in the cycle where `last` is high, the rounds' output is the ciphertext (combinational);
//   the owner either consumes it or loads the next block on that edge.
// The round keys are computed on the fly (no 11 x 128-bit key store); only the
// cipher key is stored, by the owner, and the round constant steps along in an
// 8-bit register (times x in GF(2^8) per round).  `load` has priority over `advance`.
// State and round key are held as 32-bit columns (column 0 = block bytes 0..3).
//
// Not a module: `include'd into the module that owns the datapath (hpb_crypto_unit,
// hpb_aes128_block), which has the parameter ROUNDS_PER_CYCLE and runs the datapath from
// its one clocked process: dp_rounds (this cycle's combinational rounds) and then
// dp_load or dp_advance (the registers on the edge). Registers and logic are those of a module
// instance; tasks instead of an instance let the simulation model run several clock
// edges in one evaluation (hpb_crypto_unit.v, SIM_RUN_JOBS).
`include "hpb_aes128_round.v"

localparam integer DP_CYCLES = 10 / ROUNDS_PER_CYCLE;  // cycles per block after load

generate
  if (ROUNDS_PER_CYCLE != 1 && ROUNDS_PER_CYCLE != 2 &&
      ROUNDS_PER_CYCLE != 5 && ROUNDS_PER_CYCLE != 10) begin : g_bad_param
    $error("hpb_aes128_datapath: ROUNDS_PER_CYCLE must be 1, 2, 5 or 10");
  end
endgenerate

reg [31:0] dp_s0, dp_s1, dp_s2, dp_s3;  // state columns
reg [31:0] dp_k0, dp_k1, dp_k2, dp_k3;  // round key columns
reg [7:0]  dp_rcon;                     // round constant of this cycle's first round
reg [3:0]  dp_step;

// This cycle's rounds, combinational from the registers: the state after them (r, the
// ciphertext when `last`: this cycle's rounds end with round 10), and the round key and
// round constant that follow them.
task automatic dp_rounds(
    output [31:0] r0, r1, r2, r3,
    output [31:0] nk0, nk1, nk2, nk3,
    output [7:0]  nrc,
    output        last
);
  reg [31:0] a0, a1, a2, a3, b0, b1, b2, b3, o0, o1, o2, o3, n0, n1, n2, n3;
  reg [7:0]  rc;
  integer    i;
  begin
    last = (dp_step == 4'(DP_CYCLES - 1));
    a0 = dp_s0; a1 = dp_s1; a2 = dp_s2; a3 = dp_s3;
    b0 = dp_k0; b1 = dp_k1; b2 = dp_k2; b3 = dp_k3;
    rc = dp_rcon;
    // Round 10 is the last stage of the last cycle.
    for (i = 0; i < ROUNDS_PER_CYCLE; i = i + 1) begin
      hpb_aes_round(a0, a1, a2, a3, b0, b1, b2, b3, rc, last && (i == ROUNDS_PER_CYCLE - 1),
                    n0, n1, n2, n3, o0, o1, o2, o3);
      a0 = o0; a1 = o1; a2 = o2; a3 = o3;
      b0 = n0; b1 = n1; b2 = n2; b3 = n3;
      rc = hpb_xtime(rc);
    end
    r0 = a0; r1 = a1; r2 = a2; r3 = a3;
    nk0 = b0; nk1 = b1; nk2 = b2; nk3 = b3;
    nrc = rc;
  end
endtask

// The registers on one edge, from the values dp_rounds gave for this cycle: dp_load
// (`load`: the block XOR the cipher key, round 0) or dp_advance (`advance`: the rounds'
// output); neither on an edge that does neither (they hold). Blocking assignments, made
// after everything the edge reads from the datapath (see hpb_crypto_unit.v: the same
// flip-flops as non-blocking ones).
/* verilator lint_off BLKSEQ */
task automatic dp_load(
    input [31:0] b0, b1, b2, b3,  // block, as columns
    input [31:0] k0, k1, k2, k3   // cipher key
);
  begin
    dp_step = 4'd0;
    dp_s0 = b0 ^ k0; dp_s1 = b1 ^ k1; dp_s2 = b2 ^ k2; dp_s3 = b3 ^ k3;
    dp_k0 = k0; dp_k1 = k1; dp_k2 = k2; dp_k3 = k3;
    dp_rcon = 8'h01;
  end
endtask

task automatic dp_advance(
    input [31:0] r0, r1, r2, r3,
    input [31:0] nk0, nk1, nk2, nk3,
    input [7:0]  nrc
);
  begin
    dp_step = dp_step + 4'd1;
    dp_s0 = r0; dp_s1 = r1; dp_s2 = r2; dp_s3 = r3;
    dp_k0 = nk0; dp_k1 = nk1; dp_k2 = nk2; dp_k3 = nk3;
    dp_rcon = nrc;
  end
endtask

task automatic dp_reset;
  begin
    dp_step = 4'd0;
    {dp_s0, dp_s1, dp_s2, dp_s3} = 128'd0;
    {dp_k0, dp_k1, dp_k2, dp_k3} = 128'd0;
    dp_rcon = 8'h00;
  end
endtask
/* verilator lint_on BLKSEQ */
