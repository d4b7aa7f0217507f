// Routing-bit stream generator (Ishii 1985, sections 3.3-3.4, Figures 9-17):
// the NIC circuit that turns a (source, destination) address pair into the
// serial stream that steers a message through a bit-serial fat tree.
//
// Stream, first bit first (bit_o while valid_o is high, one bit per clock):
//   M                   message bit, 1
//   source part         source cells, least significant first: below the pivot
//                       inverted, the pivot bit as is, above it two buffering bits
//   destination part    destination cells, most significant first: above the
//                       pivot two buffering bits, the pivot dropped, below as is
// A load edge captures both addresses; from the next cycle the stream appears,
// M first, and valid_o stays high for exactly its 4H - 2h bits (h = height of
// the turning node). The stream shifts out of one chain of register cells
// ordered M, source 0..H-1, destination H-1..0; each cell holds 0, 1 or 2
// stages, chosen at load by the comparator bank.
//
// Departure from the memo's fixed-width circuit: `height_i` selects how many
// low address bits are in use (1..Height). Cells above it hold no stage, so one
// generator serves fat trees of any height up to Height (the memo's section 3.5
// asks interfaces to hide the machine's size from processors). `turn_fill_i`
// selects the value of the last buffering bit: 0, or the turning bit as in the
// memo's Figures 6-8; the switches ignore buffering bits either way.
// Loading src_i == dst_i is not a message (there is no pivot); the stream is
// then M followed by buffering bits only.
module route_stream_generator #(
  parameter int unsigned Height = 8
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        load_i,
  input  logic [$clog2(Height+1)-1:0] height_i,
  input  logic                        turn_fill_i,
  input  logic [Height-1:0]           src_i,
  input  logic [Height-1:0]           dst_i,
  output logic                        valid_o,
  output logic                        bit_o
);

  logic [Height:0]   carry;  // carry[k+1] enters cell k from above
  logic [Height-1:0] active, above, pivot, below;
  logic [Height-1:0] src_head_bit, src_head_valid;
  logic [Height-1:0] dst_head_bit, dst_head_valid;

  assign carry[Height] = 1'b0;

  for (genvar k = 0; k < Height; k++) begin : g_bit
    assign active[k] = {{(32-$clog2(Height+1)){1'b0}}, height_i} > k;

    route_comparator_cell u_cmp (
      .active_i (active[k]),
      .src_bit_i(src_i[k]),
      .dst_bit_i(dst_i[k]),
      .carry_i  (carry[k+1]),
      .carry_o  (carry[k]),
      .above_o  (above[k]),
      .pivot_o  (pivot[k]),
      .below_o  (below[k])
    );

    // Source cells: cell k's tail is cell k+1; the last one feeds from the
    // destination register's most significant cell.
    logic src_tail_bit, src_tail_valid;
    if (k == Height - 1) begin : g_src_last
      assign src_tail_bit   = dst_head_bit[Height-1];
      assign src_tail_valid = dst_head_valid[Height-1];
    end else begin : g_src_mid
      assign src_tail_bit   = src_head_bit[k+1];
      assign src_tail_valid = src_head_valid[k+1];
    end

    route_source_cell u_src (
      .clk_i,
      .rst_ni,
      .load_i,
      .src_bit_i   (src_i[k]),
      .above_i     (above[k]),
      .pivot_i     (pivot[k]),
      .below_i     (below[k]),
      .tail_bit_i  (src_tail_bit),
      .tail_valid_i(src_tail_valid),
      .head_bit_o  (src_head_bit[k]),
      .head_valid_o(src_head_valid[k])
    );

    // Destination cells: cell k's tail is cell k-1; cell 0 ends the chain.
    logic dst_tail_bit, dst_tail_valid, last_buffer_bit;
    if (k == 0) begin : g_dst_first
      assign dst_tail_bit    = 1'b0;
      assign dst_tail_valid  = 1'b0;
      assign last_buffer_bit = 1'b0;
    end else begin : g_dst_mid
      assign dst_tail_bit    = dst_head_bit[k-1];
      assign dst_tail_valid  = dst_head_valid[k-1];
      // Just above the pivot: the stream's last buffering bit.
      assign last_buffer_bit = turn_fill_i & pivot[k-1] & src_i[k-1];
    end

    route_destination_cell u_dst (
      .clk_i,
      .rst_ni,
      .load_i,
      .dst_bit_i        (dst_i[k]),
      .above_i          (above[k]),
      .below_i          (below[k]),
      .last_buffer_bit_i(last_buffer_bit),
      .tail_bit_i       (dst_tail_bit),
      .tail_valid_i     (dst_tail_valid),
      .head_bit_o       (dst_head_bit[k]),
      .head_valid_o     (dst_head_valid[k])
    );
  end

  // The message-bit stage heads the chain.
  logic message_d, message_q, message_valid_d, message_valid_q;

  always_comb begin
    if (load_i) begin
      message_d       = 1'b1;
      message_valid_d = 1'b1;
    end else begin
      message_d       = src_head_bit[0];
      message_valid_d = src_head_valid[0];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      message_q       <= 1'b0;
      message_valid_q <= 1'b0;
    end else begin
      message_q       <= message_d;
      message_valid_q <= message_valid_d;
    end
  end

  assign bit_o   = message_q;
  assign valid_o = message_valid_q;

  // carry[0] (addresses differ) drives nothing; with Height = 1 neither does
  // turn_fill_i (there is no cell above a pivot).
  logic unused_carry, unused_fill;
  assign unused_carry = carry[0];
  assign unused_fill  = turn_fill_i;

endmodule
