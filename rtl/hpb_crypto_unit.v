// HPB entry signing / verification unit (see rtl/README.md for the scheme).
//
//   N   = (LU, generation, LBA[47:0])             the entry's context
//   tag = AES_K(0x01 || N || PPN)[127:96]        32-bit MAC
//   ks  = AES_K(0x02 || N || tag)[127:96]        32-bit keystream (SIV: IV = tag)
//   entry = {PPN ^ ks, tag}
//
// Sign:   phase A computes tag, phase B computes ks.
// Verify: phase A computes ks from the entry's tag, decrypts the PPN; phase B
//         recomputes the tag over the decrypted PPN and compares.
// Every job takes exactly 2 * (10 / ROUNDS_PER_CYCLE) cycles from the accepting
// edge to the edge that raises out_valid, whatever the outcome (constant time);
// the next job can be accepted on the following edge.
//
// Register interface (APB-lite style: write on the clock edge when reg_we is
// high, combinational read of reg_addr).  Offsets in bytes:
//   0x00 ID       RO  0x48504243 ("HPBC")
//   0x04 CONFIG   RO  [7:0] ROUNDS_PER_CYCLE, [15:8] cycles per job, [23:16] version
//   0x08 CTRL     WO  bit0 KEY_COMMIT (staged key -> session key, staging cleared)
//                     bit1 KEY_ZEROIZE (session key and staging cleared, key invalid)
//                     bit2 CLEAR_COUNTERS
//   0x0C STATUS   RO  bit0 key valid, bit1 busy, bit2 key operation pending
//   0x10..0x1C KEY0..KEY3 WO  staged session key, KEY0 = key bytes 0..3 (byte 0 in [31:24])
//   0x20 SIGN_JOBS     RO  sign jobs completed
//   0x24 VERIFY_JOBS   RO  verify jobs completed
//   0x28 VERIFY_FAILS  RO  verify jobs whose tag did not match
//   0x2C ERRORS        RO  jobs rejected (no key loaded, LBA beyond 48 bits)
// Key registers have no read path: reading them returns 0.
//
// SIM_RUN_JOBS = 0 (the default) is the unit. SIM_RUN_JOBS = 1 is the same unit for the
// Verilated simulation model, with one more input and two more outputs: while sim_run is
// high, one rising clock edge runs the unit's edges, the same logic (unit_edge) one after
// the other in one process activation, until the job presented on in_* has been taken
// and its result is on the outputs: in_valid is held until the job is taken (as a source
// would) and reg_we is low after the first edge. sim_edges says how many edges that was
// (the edge of the evaluation included) and sim_accept_edge on which of them the job was
// taken (0 = the first). The platform's model then evaluates a job's 2 * 10 /
// ROUNDS_PER_CYCLE + 1 edges in one call instead of one call per edge (the cost of a
// Verilated evaluation is mostly per call); with sim_run low it is the unit, edge by edge
// (waves, register writes). In hardware the three ports are absent in effect: sim_run is
// ignored and the outputs are 0.
module hpb_crypto_unit #(
    parameter integer ROUNDS_PER_CYCLE = 1,
    parameter integer SIM_RUN_JOBS = 0
) (
    input  wire        clk,
    input  wire        rst_n,
    // register interface
    input  wire        reg_we,
    input  wire [5:0]  reg_addr,
    input  wire [31:0] reg_wdata,
    output reg  [31:0] reg_rdata,
    // job stream in
    input  wire        in_valid,
    output wire        in_ready,
    input  wire        in_verify,  // 0 = sign, 1 = verify
    input  wire [7:0]  in_lun,
    input  wire [63:0] in_lba,
    input  wire [31:0] in_gen,
    input  wire [31:0] in_ppn,     // sign: the PPN to hide
    input  wire [63:0] in_entry,   // verify: the entry from the host
    input  wire [7:0]  in_id,      // returned with the result
    // result stream out
    output reg         out_valid,
    input  wire        out_ready,
    output reg         out_verify,
    output reg  [1:0]  out_status, // 0 ok, 1 tag mismatch, 2 no key, 3 LBA out of range
    output reg  [31:0] out_ppn,    // sign: echo; verify: decrypted PPN if ok, else 0
    output reg  [63:0] out_entry,  // sign: the entry if ok, else 0; verify: echo
    output reg  [7:0]  out_id,
    // simulation model only (SIM_RUN_JOBS = 1), see above
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire        sim_run,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [7:0]  sim_edges,
    output wire [7:0]  sim_accept_edge
);
  localparam integer CYCLES_PER_BLOCK = 10 / ROUNDS_PER_CYCLE;
  localparam [7:0] VERSION = 8'd1;
  localparam [7:0] DOMAIN_MAC = 8'h01;
  localparam [7:0] DOMAIN_KS  = 8'h02;
  localparam [1:0] ST_OK = 2'd0, ST_MISMATCH = 2'd1, ST_NO_KEY = 2'd2, ST_LBA_RANGE = 2'd3;

  // The AES datapath: its registers (dp_*) and the tasks of its edge.
`include "hpb_aes128_datapath.v"

  // ---------------- registers ----------------
  // Key material stays out of waveform traces as well (there is no read path either).
  // Held as 32-bit words (word 0 = key bytes 0..3), as the registers that write them.
  /* verilator tracing_off */
  reg [31:0]  key_stage0, key_stage1, key_stage2, key_stage3;
  reg [31:0]  session_key0, session_key1, session_key2, session_key3;
  /* verilator tracing_on */
  reg         key_valid;
  reg [1:0]   key_op;       // pending key operation: bit0 commit, bit1 zeroize
  reg [31:0]  cnt_sign, cnt_verify, cnt_fail, cnt_error;

  // ---------------- job context ----------------
  reg         busy;
  reg         phase_b;
  reg         job_verify;
  reg [7:0]   job_lun;
  reg [47:0]  job_lba;
  reg [31:0]  job_gen;
  reg [31:0]  job_ppn;      // sign: PPN; verify: decrypted PPN (after phase A)
  reg [63:0]  job_entry;    // verify: the entry; sign: {--, tag} after phase A
  reg [1:0]   job_error;    // ST_OK or the reject reason decided at accept
  reg [7:0]   job_id;

  assign in_ready = !busy && (key_op == 2'b00);

  // ---------------- one clock edge ----------------
  // Every register of the unit on one rising edge of clk, from this edge's inputs (the
  // job valid `v` and the register write `we`; the other inputs are read from the ports)
  // and the current register values; `took` = the job was accepted. The process is one
  // task of blocking assignments in which the edge's combinational values are taken
  // first and every register is written after all of the edge's reads of it: the same
  // flip-flops as non-blocking assignments give, and the simulation model can run the
  // task for several edges in one activation (SIM_RUN_JOBS).
  //
  // Sign:   phase A computes tag, phase B computes ks.
  // Verify: phase A computes ks from the entry's tag, decrypts the PPN; phase B
  //         recomputes the tag over the decrypted PPN and compares.
  /* verilator lint_off BLKSEQ */
  task automatic unit_edge(input v, input we, output took);
    // Both outputs of the scheme are 32-bit truncations of the AES block; the other 96
    // bits are dropped on purpose (synthesis prunes their last-round logic).
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0] r0, r1, r2, r3;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [31:0] nk0, nk1, nk2, nk3, ct32, dec_ppn;
    reg [7:0]  nrc;
    reg        last, ctrl_write, accept, phase_a_end, finish, key_apply;
    reg [1:0]  key_op_next, fin_status;
    begin
      // ---- combinational values of this edge ----
      // The rounds' output is used only while a job runs: operand isolation (the rounds
      // see zeros when idle) saves their switching in hardware and their evaluation in
      // the model.
      if (busy) begin
        dp_rounds(r0, r1, r2, r3, nk0, nk1, nk2, nk3, nrc, last);
      end else begin
        {r0, r1, r2, r3, nk0, nk1, nk2, nk3} = 256'd0;
        nrc = 8'd0;
        last = 1'b0;
      end
      ct32 = r0;
      ctrl_write = we && (reg_addr == 6'h08);
      key_op_next = key_op | (ctrl_write ? reg_wdata[1:0] : 2'b00);
      accept = v && !busy && (key_op == 2'b00);
      phase_a_end = busy && last && !phase_b;
      finish = busy && last && phase_b && (!out_valid || out_ready);
      // key operations take effect only while no job is in flight (a job
      // accepted on the same edge runs first, with the old key)
      key_apply = !busy && !accept && (key_op_next != 2'b00);
      dec_ppn = job_entry[63:32] ^ ct32;
      fin_status = (job_error != ST_OK) ? job_error
                 : (job_verify && ct32 != job_entry[31:0]) ? ST_MISMATCH : ST_OK;

      // ---- the registers ----
      // The AES datapath: on accept the first AES call's block, at the end of phase A the
      // second's, {domain, LU, generation, LBA[47:0], word} as columns (word = the PPN, the
      // entry's tag, the decrypted PPN or the tag just computed); else the rounds advance.
      if (accept)
        dp_load({in_verify ? DOMAIN_KS : DOMAIN_MAC, in_lun, in_gen[31:16]},
                {in_gen[15:0], in_lba[47:32]}, in_lba[31:0],
                in_verify ? in_entry[31:0] : in_ppn,
                session_key0, session_key1, session_key2, session_key3);
      else if (phase_a_end)
        dp_load({job_verify ? DOMAIN_MAC : DOMAIN_KS, job_lun, job_gen[31:16]},
                {job_gen[15:0], job_lba[47:32]}, job_lba[31:0],
                job_verify ? dec_ppn : ct32,
                session_key0, session_key1, session_key2, session_key3);
      else if (busy && !last)
        dp_advance(r0, r1, r2, r3, nk0, nk1, nk2, nk3, nrc);

      if (key_apply) begin
        key_op = 2'b00;
        if (key_op_next[1]) begin
          {session_key0, session_key1, session_key2, session_key3} = 128'd0;
          key_valid = 1'b0;
        end else begin
          session_key0 = key_stage0;
          session_key1 = key_stage1;
          session_key2 = key_stage2;
          session_key3 = key_stage3;
          key_valid = 1'b1;
        end
        // staging cleared: over a write on the same edge
        {key_stage0, key_stage1, key_stage2, key_stage3} = 128'd0;
      end else begin
        key_op = key_op_next;
        if (we) begin
          // key staging registers
          if (reg_addr == 6'h10) key_stage0 = reg_wdata;
          if (reg_addr == 6'h14) key_stage1 = reg_wdata;
          if (reg_addr == 6'h18) key_stage2 = reg_wdata;
          if (reg_addr == 6'h1C) key_stage3 = reg_wdata;
        end
      end

      if (ctrl_write && reg_wdata[2]) begin
        cnt_sign   = 32'd0;
        cnt_verify = 32'd0;
        cnt_fail   = 32'd0;
        cnt_error  = 32'd0;
      end else if (finish) begin
        if (job_verify) cnt_verify = cnt_verify + 32'd1;
        else            cnt_sign   = cnt_sign + 32'd1;
        if (fin_status == ST_MISMATCH) cnt_fail = cnt_fail + 32'd1;
        if (job_error != ST_OK)        cnt_error = cnt_error + 32'd1;
      end

      if (out_valid && out_ready) out_valid = 1'b0;

      // accept, phase_a_end and finish exclude each other (busy, phase_b)
      if (accept) begin
        busy       = 1'b1;
        phase_b    = 1'b0;
        job_verify = in_verify;
        job_lun    = in_lun;
        job_lba    = in_lba[47:0];
        job_gen    = in_gen;
        job_ppn    = in_ppn;
        job_entry  = in_entry;
        job_id     = in_id;
        job_error  = !key_valid ? ST_NO_KEY
                   : (in_lba[63:48] != 16'd0) ? ST_LBA_RANGE : ST_OK;
      end
      if (phase_a_end) begin
        phase_b = 1'b1;
        if (job_verify) job_ppn = dec_ppn;
        else            job_entry[31:0] = ct32;  // the tag
      end
      if (finish) begin
        busy       = 1'b0;
        phase_b    = 1'b0;
        out_valid  = 1'b1;
        out_verify = job_verify;
        out_status = fin_status;
        out_id     = job_id;
        if (job_verify) begin
          out_ppn   = (fin_status == ST_OK) ? job_ppn : 32'd0;
          out_entry = job_entry;
        end else begin
          out_ppn   = job_ppn;
          out_entry = (fin_status == ST_OK) ? {job_ppn ^ ct32, job_entry[31:0]} : 64'd0;
        end
      end
      took = accept;
    end
  endtask

  task automatic unit_reset;
    begin
      dp_reset;
      busy       = 1'b0;
      phase_b    = 1'b0;
      out_valid  = 1'b0;
      key_valid  = 1'b0;
      key_op     = 2'b00;
      {key_stage0, key_stage1, key_stage2, key_stage3} = 128'd0;
      {session_key0, session_key1, session_key2, session_key3} = 128'd0;
      cnt_sign   = 32'd0;
      cnt_verify = 32'd0;
      cnt_fail   = 32'd0;
      cnt_error  = 32'd0;
      job_verify = 1'b0;
      job_lun    = 8'd0;
      job_lba    = 48'd0;
      job_gen    = 32'd0;
      job_ppn    = 32'd0;
      job_entry  = 64'd0;
      job_id     = 8'd0;
      job_error  = ST_OK;
      out_verify = 1'b0;
      out_status = ST_OK;
      out_id     = 8'd0;
      out_ppn    = 32'd0;
      out_entry  = 64'd0;
    end
  endtask

  // ---------------- the clocked process ----------------
  // One process with every register reset: the Verilated model tests one trigger per
  // evaluation.
  generate
    if (SIM_RUN_JOBS == 0) begin : g_unit
      reg took_unused;
      always @(posedge clk or negedge rst_n) begin
        if (!rst_n) unit_reset;
        else unit_edge(in_valid, reg_we, took_unused);
      end
      assign sim_edges = 8'd0;
      assign sim_accept_edge = 8'd0;
    end else begin : g_sim
      reg [7:0] edges, accept_edge;
      // One evaluation: the edge, and with sim_run the job's next edges (the job held on
      // in_* until taken, reg_we on the first edge only) until its result is out. A job's
      // edges are at most 21 (plus one for a pending key operation): the bound of 255
      // never binds, it keeps a model bug from hanging the caller.
      task automatic sim_edges_of_job;
        reg [7:0] n, at;
        reg       took, taken;
        begin
          n = 8'd0;
          at = 8'd0;
          taken = 1'b0;
          do begin
            unit_edge(in_valid && !taken, reg_we && n == 8'd0, took);
            if (took) at = n;
            taken = taken || took;
            n = n + 8'd1;
          end while (sim_run && in_valid && !(taken && out_valid) && n != 8'd255);
          edges = n;
          accept_edge = at;
        end
      endtask
      always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
          unit_reset;
          edges = 8'd0;
          accept_edge = 8'd0;
        end else begin
          sim_edges_of_job;
        end
      end
      assign sim_edges = edges;
      assign sim_accept_edge = accept_edge;
    end
  endgenerate
  /* verilator lint_on BLKSEQ */

  // ---------------- register read (combinational) ----------------
  always @* begin
    case (reg_addr)
      6'h00:   reg_rdata = 32'h48504243;
      6'h04:   reg_rdata = {8'd0, VERSION, 8'(2 * CYCLES_PER_BLOCK), 8'(ROUNDS_PER_CYCLE)};
      6'h0C:   reg_rdata = {29'd0, (key_op != 2'b00), busy, key_valid};
      6'h20:   reg_rdata = cnt_sign;
      6'h24:   reg_rdata = cnt_verify;
      6'h28:   reg_rdata = cnt_fail;
      6'h2C:   reg_rdata = cnt_error;
      default: reg_rdata = 32'd0;  // CTRL and KEY0..3 are write-only
    endcase
  end
endmodule
