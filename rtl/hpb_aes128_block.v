// Stand-alone AES-128 block encryptor with valid/ready streams: one block in
// flight, latency 10/ROUNDS_PER_CYCLE cycles from the accepting edge to the
// edge that raises out_valid.  Used to run the FIPS-197 / SP 800-38A known-answer
// tests on the same datapath the HPB unit uses; it has no key storage.
module hpb_aes128_block #(
    parameter integer ROUNDS_PER_CYCLE = 1
) (
    input  wire         clk,
    input  wire         rst_n,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [127:0] in_key,
    input  wire [127:0] in_block,
    output reg          out_valid,
    input  wire         out_ready,
    output reg  [127:0] out_block
);
`include "hpb_aes128_datapath.v"

  reg busy;
  assign in_ready = !busy;

  // One clock edge, as in hpb_crypto_unit.v: the edge's combinational values first, then
  // the registers (blocking assignments after all reads: the same flip-flops).
  /* verilator lint_off BLKSEQ */
  task automatic block_edge;
    reg [31:0] r0, r1, r2, r3, nk0, nk1, nk2, nk3;
    reg [7:0]  nrc;
    reg        last, accept, finish;
    begin
      dp_rounds(r0, r1, r2, r3, nk0, nk1, nk2, nk3, nrc, last);
      accept = in_valid && !busy;
      finish = busy && last && (!out_valid || out_ready);
      // the key is only used on the loading edge
      if (accept)
        dp_load(in_block[127:96], in_block[95:64], in_block[63:32], in_block[31:0],
                in_key[127:96], in_key[95:64], in_key[63:32], in_key[31:0]);
      else if (busy && !last)
        dp_advance(r0, r1, r2, r3, nk0, nk1, nk2, nk3, nrc);
      if (out_valid && out_ready) out_valid = 1'b0;
      if (accept) busy = 1'b1;
      if (finish) begin
        busy      = 1'b0;
        out_valid = 1'b1;
        out_block = {r0, r1, r2, r3};
      end
    end
  endtask

  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      dp_reset;
      busy      = 1'b0;
      out_valid = 1'b0;
    end else begin
      block_edge;
    end
  end
  /* verilator lint_on BLKSEQ */
endmodule
