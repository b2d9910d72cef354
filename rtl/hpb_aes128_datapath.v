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
// cipher key is stored, by the owner.  `load` has priority over `advance`.
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

  generate
    if (ROUNDS_PER_CYCLE != 1 && ROUNDS_PER_CYCLE != 2 &&
        ROUNDS_PER_CYCLE != 5 && ROUNDS_PER_CYCLE != 10) begin : g_bad_param
      $error("hpb_aes128_datapath: ROUNDS_PER_CYCLE must be 1, 2, 5 or 10");
    end
  endgenerate

  reg [127:0] state;
  reg [127:0] round_key;
  reg [3:0]   step;

  function automatic [7:0] rcon_of(input [3:0] round);  // round 1..10
    case (round)
      4'd1:    rcon_of = 8'h01;
      4'd2:    rcon_of = 8'h02;
      4'd3:    rcon_of = 8'h04;
      4'd4:    rcon_of = 8'h08;
      4'd5:    rcon_of = 8'h10;
      4'd6:    rcon_of = 8'h20;
      4'd7:    rcon_of = 8'h40;
      4'd8:    rcon_of = 8'h80;
      4'd9:    rcon_of = 8'h1b;
      4'd10:   rcon_of = 8'h36;
      default: rcon_of = 8'h00;
    endcase
  endfunction

  assign last = (step == 4'(N - 1));

  wire [127:0] st [0:ROUNDS_PER_CYCLE];
  wire [127:0] rk [0:ROUNDS_PER_CYCLE];
  assign st[0] = state;
  assign rk[0] = round_key;

  genvar i;
  generate
    for (i = 0; i < ROUNDS_PER_CYCLE; i = i + 1) begin : g_round
      // round number of this stage: step * ROUNDS_PER_CYCLE + i + 1
      wire [3:0] round_no = 4'(step * 4'(ROUNDS_PER_CYCLE) + 4'(i + 1));
      hpb_aes128_round u_round (
          .state_in   (st[i]),
          .key_in     (rk[i]),
          .rcon       (rcon_of(round_no)),
          .final_round(round_no == 4'd10),
          .key_out    (rk[i+1]),
          .state_out  (st[i+1])
      );
    end
  endgenerate

  assign round_out = st[ROUNDS_PER_CYCLE];

  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      step <= 4'd0;
    end else if (load) begin
      step <= 4'd0;
    end else if (advance) begin
      step <= step + 4'd1;
    end
  end

  // Data registers need no reset.
  always @(posedge clk) begin
    if (load) begin
      state     <= load_block ^ key;
      round_key <= key;
    end else if (advance) begin
      state     <= round_out;
      round_key <= rk[ROUNDS_PER_CYCLE];
    end
  end
endmodule
