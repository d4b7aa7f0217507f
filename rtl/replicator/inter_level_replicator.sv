// The inter-level replication hardware of HPAM (Ben Miled et al.): one input
// stream of flits in, Branches outputs, every flit copied onto each branch of
// its mask. Flow control is valid/ready per branch; the contract, shared with
// the C++ model, is routers/hpam/replicator_core.hpp.
//
// Two modes, chosen by the buffered_i strap:
// - lockstep (buffered_i = 0): no storage; a flit is taken in a cycle in which
//   every masked branch is ready and leaves on all of them in that cycle
//   (in_ready_o combinational on out_ready_i). The FIFOs stay idle.
// - buffered (buffered_i = 1): one FIFO per branch; a flit is taken when every
//   masked FIFO has room as registered, each branch drains on its own.
//
// One verilated configuration serves every replicator: branches_i (1..Branches)
// and depth_i (1..Depth) are straps, like the stream generator's height_i.
// Branches at and above branches_i never receive a flit.
//
// Departure from lowRISC style: the per-branch outputs are flat vectors
// (branch b at [b*Width +: Width]) rather than packed 2-D arrays, which
// Yosys 0.23 (Debian 12) does not parse in ports.
module inter_level_replicator #(
  parameter int unsigned Branches = 16,
  parameter int unsigned Depth    = 16,
  parameter int unsigned Width    = 64,
  localparam int unsigned BranchW = $clog2(Branches + 1),
  localparam int unsigned CountW  = $clog2(Depth + 1)
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // straps, constant while running
  input  logic [BranchW-1:0]                 branches_i,
  input  logic [CountW-1:0]                  depth_i,
  input  logic                               buffered_i,
  // input stream
  input  logic                               in_valid_i,
  input  logic [Width-1:0]                   in_data_i,
  input  logic                               in_last_i,
  input  logic [Branches-1:0]                in_mask_i,
  output logic                               in_ready_o,
  // branch outputs
  output logic [Branches-1:0]                out_valid_o,
  output logic [Branches*Width-1:0]         out_data_o,
  output logic [Branches-1:0]                out_last_o,
  input  logic [Branches-1:0]                out_ready_i,
  // observability: flits held for each branch (0 in lockstep)
  output logic [Branches*CountW-1:0]        occupancy_o
);

  logic [Branches-1:0] active;
  logic [Branches-1:0] mask;
  logic [Branches-1:0] fifo_valid;
  logic [Branches-1:0] fifo_full;
  logic [Branches-1:0] fifo_push;
  logic [Branches-1:0] fifo_pop;
  logic [Branches-1:0] taken_by;  // branches that can take the flit now
  logic                take;

  for (genvar b = 0; b < Branches; b++) begin : g_active
    // Zero-extended comparison rather than a cast (Yosys 0.23 has no casts).
    assign active[b] = ({{(32 - BranchW){1'b0}}, branches_i} > b);
  end

  assign mask     = in_mask_i & active;
  assign taken_by = buffered_i ? ~fifo_full : out_ready_i;
  assign take     = in_valid_i & (|mask) & ((taken_by & mask) == mask);

  assign in_ready_o = take;
  assign fifo_push  = (buffered_i && take) ? mask : '0;
  assign fifo_pop   = buffered_i ? (fifo_valid & out_ready_i) : '0;

  for (genvar b = 0; b < Branches; b++) begin : g_branch
    logic [Width:0] head;

    replicator_branch_fifo #(
      .Width(Width + 1),
      .Depth(Depth)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .depth_i,
      .push_i     (fifo_push[b]),
      .data_i     ({in_last_i, in_data_i}),
      .pop_i      (fifo_pop[b]),
      .valid_o    (fifo_valid[b]),
      .data_o     (head),
      .full_o     (fifo_full[b]),
      .occupancy_o(occupancy_o[b*CountW +: CountW])
    );

    always_comb begin
      if (buffered_i) begin
        out_valid_o[b] = fifo_valid[b];
        out_data_o[b*Width +: Width] = head[Width-1:0];
        out_last_o[b]  = head[Width];
      end else begin
        out_valid_o[b] = take & mask[b];
        out_data_o[b*Width +: Width] = in_data_i;
        out_last_o[b]  = in_last_i;
      end
    end
  end

endmodule
