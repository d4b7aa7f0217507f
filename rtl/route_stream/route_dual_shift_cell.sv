// Dual shift cell (Ishii 1985, Figures 12-13): a register cell of the stream
// generator that holds zero, one or two stages of the serial output chain, as
// configured at load time. Two stages in series turn one address bit into two
// buffering bits without a second cell, which is why buffering costs no extra
// order of growth in hardware.
//
// The chain shifts toward the output: each clock a stage takes the value of the
// stage behind it (tail side). A valid bit travels with every stage so the
// generator knows where the stream ends.
module route_dual_shift_cell (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       load_i,
  input  logic [1:0] stages_i,      // stages to hold after this load: 0, 1 or 2
  input  logic       first_bit_i,   // value of the stage nearer the output
  input  logic       second_bit_i,  // value of the second stage (two-stage mode)
  input  logic       tail_bit_i,    // from the cell behind, toward the tail
  input  logic       tail_valid_i,
  output logic       head_bit_o,    // to the cell ahead, toward the output
  output logic       head_valid_o
);

  logic [1:0] stages_d, stages_q;
  logic       first_d, first_q, second_d, second_q;
  logic       first_valid_d, first_valid_q, second_valid_d, second_valid_q;

  always_comb begin
    stages_d       = stages_q;
    first_d        = first_q;
    second_d       = second_q;
    first_valid_d  = first_valid_q;
    second_valid_d = second_valid_q;
    if (load_i) begin
      stages_d       = stages_i;
      first_d        = first_bit_i;
      second_d       = second_bit_i;
      first_valid_d  = stages_i != 2'd0;
      second_valid_d = stages_i == 2'd2;
    end else if (stages_q == 2'd2) begin
      first_d        = second_q;
      first_valid_d  = second_valid_q;
      second_d       = tail_bit_i;
      second_valid_d = tail_valid_i;
    end else if (stages_q == 2'd1) begin
      first_d       = tail_bit_i;
      first_valid_d = tail_valid_i;
    end
  end

  // A cell with no stage passes the tail straight through (a dropped bit).
  assign head_bit_o   = stages_q == 2'd0 ? tail_bit_i   : first_q;
  assign head_valid_o = stages_q == 2'd0 ? tail_valid_i : first_valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stages_q       <= 2'd0;
      first_q        <= 1'b0;
      second_q       <= 1'b0;
      first_valid_q  <= 1'b0;
      second_valid_q <= 1'b0;
    end else begin
      stages_q       <= stages_d;
      first_q        <= first_d;
      second_q       <= second_d;
      first_valid_q  <= first_valid_d;
      second_valid_q <= second_valid_d;
    end
  end

endmodule
