// Source inversion cell (Ishii 1985, Figure 13): one bit of the source address
// register. The source part of the stream climbs from the source to the pivot
// node, so the bits leave least significant first, inverted (Theorem 2: invert
// and reverse retraces a path) except the pivot bit, which is kept so the
// stream turns down at the pivot node. A bit above the pivot becomes two
// buffering bits (value 0).
module route_source_cell (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic load_i,
  input  logic src_bit_i,
  input  logic above_i,
  input  logic pivot_i,
  input  logic below_i,
  input  logic tail_bit_i,
  input  logic tail_valid_i,
  output logic head_bit_o,
  output logic head_valid_o
);

  logic [1:0] stages;
  logic       first_bit;

  assign stages    = above_i ? 2'd2 : ((pivot_i | below_i) ? 2'd1 : 2'd0);
  assign first_bit = below_i ? ~src_bit_i : (pivot_i & src_bit_i);

  route_dual_shift_cell u_shift (
    .clk_i,
    .rst_ni,
    .load_i,
    .stages_i    (stages),
    .first_bit_i (first_bit),
    .second_bit_i(1'b0),
    .tail_bit_i,
    .tail_valid_i,
    .head_bit_o,
    .head_valid_o
  );

endmodule
