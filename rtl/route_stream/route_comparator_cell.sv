// Comparator cell of the routing-bit stream generator (Ishii 1985, section 3.4,
// Figure 11). One per address bit, chained by carry from the most significant
// bit down: carry-out is low only while every pair of bits at and above this
// one matched. The cell tells its register cells which kind of bit they hold:
//   above  (carry-out low)                  -> expands into two buffering bits
//   pivot  (carry-in low, carry-out high)   -> the turning bit
//   below  (carry-in high)                  -> an ordinary routing bit
// Cells at or above the configured tree height are inactive: they compare as
// equal (so the carry reaching the active cells is unaffected) and their
// register cells hold no stage.
module route_comparator_cell (
  input  logic active_i,   // this bit is inside the configured address width
  input  logic src_bit_i,
  input  logic dst_bit_i,
  input  logic carry_i,    // a pair above differed
  output logic carry_o,
  output logic above_o,
  output logic pivot_o,
  output logic below_o
);

  logic differ;
  assign differ  = active_i & (src_bit_i ^ dst_bit_i);
  assign carry_o = carry_i | differ;
  assign above_o = active_i & ~carry_o;
  assign pivot_o = active_i & ~carry_i & carry_o;
  assign below_o = active_i & carry_i;

endmodule
