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
  reg         busy;
  wire [127:0] round_out;
  wire         last;

  wire accept = in_valid && in_ready;
  wire finish = busy && last && (!out_valid || out_ready);
  assign in_ready = !busy;

  hpb_aes128_datapath #(.ROUNDS_PER_CYCLE(ROUNDS_PER_CYCLE)) u_dp (
      .clk       (clk),
      .rst_n     (rst_n),
      .load      (accept),
      .load_block(in_block),
      .advance   (busy && !last),
      .key       (in_key),  // only used on the loading edge
      .round_out (round_out),
      .last      (last)
  );

  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      busy      <= 1'b0;
      out_valid <= 1'b0;
    end else begin
      if (out_valid && out_ready) out_valid <= 1'b0;
      if (accept) busy <= 1'b1;
      if (finish) begin
        busy      <= 1'b0;
        out_valid <= 1'b1;
      end
    end
  end

  always @(posedge clk) begin
    if (finish) out_block <= round_out;
  end
endmodule
