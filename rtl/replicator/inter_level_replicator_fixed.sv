// The replicator with its straps tied to constants, for area counts: a build
// for exactly Branches branches of Depth slots in one mode, as a chip would
// instantiate it (scripts/rtl_area). Buffered = 0 leaves the FIFOs unused and
// synthesis removes them.
module inter_level_replicator_fixed #(
  parameter int unsigned Branches = 4,
  parameter int unsigned Depth    = 4,
  parameter int unsigned Width    = 64,
  parameter bit          Buffered = 1'b1,
  localparam int unsigned BranchW = $clog2(Branches + 1),
  localparam int unsigned CountW  = $clog2(Depth + 1)
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            in_valid_i,
  input  logic [Width-1:0]                in_data_i,
  input  logic                            in_last_i,
  input  logic [Branches-1:0]             in_mask_i,
  output logic                            in_ready_o,
  output logic [Branches-1:0]             out_valid_o,
  output logic [Branches*Width-1:0]      out_data_o,
  output logic [Branches-1:0]             out_last_o,
  input  logic [Branches-1:0]             out_ready_i
);

  logic [Branches*CountW-1:0] unused_occupancy;

  inter_level_replicator #(
    .Branches(Branches),
    .Depth   (Depth),
    .Width   (Width)
  ) u_replicator (
    .clk_i,
    .rst_ni,
    .branches_i (BranchW'(Branches)),
    .depth_i    (CountW'(Depth)),
    .buffered_i (Buffered),
    .in_valid_i,
    .in_data_i,
    .in_last_i,
    .in_mask_i,
    .in_ready_o,
    .out_valid_o,
    .out_data_o,
    .out_last_o,
    .out_ready_i,
    .occupancy_o(unused_occupancy)
  );

endmodule
