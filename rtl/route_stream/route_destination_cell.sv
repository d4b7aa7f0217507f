// Destination address cell (Ishii 1985, Figure 12): one bit of the destination
// address register. The destination part of the stream descends from the
// pivot node, most significant bit first; the pivot bit itself is dropped (the
// source part's pivot bit already turned the stream down). A bit above the
// pivot becomes two buffering bits. With the turn-bit fill (Figures 6-8) the
// very last buffering bit repeats the turning bit: that is the second stage of
// the cell just above the pivot, fed by the pivot cell's source bit.
module route_destination_cell (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic load_i,
  input  logic dst_bit_i,
  input  logic above_i,
  input  logic below_i,
  input  logic last_buffer_bit_i,  // value for the second stage (0 unless turn-bit fill)
  input  logic tail_bit_i,
  input  logic tail_valid_i,
  output logic head_bit_o,
  output logic head_valid_o
);

  logic [1:0] stages;

  assign stages = above_i ? 2'd2 : (below_i ? 2'd1 : 2'd0);

  route_dual_shift_cell u_shift (
    .clk_i,
    .rst_ni,
    .load_i,
    .stages_i    (stages),
    .first_bit_i (below_i & dst_bit_i),
    .second_bit_i(above_i & last_buffer_bit_i),
    .tail_bit_i,
    .tail_valid_i,
    .head_bit_o,
    .head_valid_o
  );

endmodule
