// One branch's FIFO of the inter-level replicator (buffered mode): a ring of
// Depth slots, of which depth_i are in use, read and write pointers and a fill
// count. The head is offered combinationally (valid_o/data_o); full_o is
// registered state, so a pop in a cycle does not make room until the edge.
module replicator_branch_fifo #(
  parameter int unsigned Width  = 65,
  parameter int unsigned Depth  = 16,
  localparam int unsigned PtrW   = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [CountW-1:0] depth_i,      // slots in use, 1..Depth (a strap)
  input  logic              push_i,       // only when !full_o
  input  logic [Width-1:0]  data_i,
  input  logic              pop_i,        // only when valid_o
  output logic              valid_o,
  output logic [Width-1:0]  data_o,
  output logic              full_o,
  output logic [CountW-1:0] occupancy_o
);

  logic [Width-1:0]  mem_q [Depth];
  logic [PtrW-1:0]   rd_ptr_d, rd_ptr_q;
  logic [PtrW-1:0]   wr_ptr_d, wr_ptr_q;
  logic [CountW-1:0] count_d, count_q;
  logic [PtrW-1:0]   last_slot;

  // The last slot in use; depth_i >= 1, so this does not underflow. Departure
  // from lowRISC style: the truncation of depth_i - 1 to the pointer width is
  // explicit slicing rather than a cast (Yosys 0.23 does not parse casts).
  // Its top bit is unused when Depth is a power of two.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [CountW-1:0] last_slot_wide;
  /* verilator lint_on UNUSEDSIGNAL */
  assign last_slot_wide = depth_i - CountW'(1);
  assign last_slot      = last_slot_wide[PtrW-1:0];

  assign valid_o     = (count_q != '0);
  assign data_o      = mem_q[rd_ptr_q];
  assign full_o      = (count_q >= depth_i);
  assign occupancy_o = count_q;

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    count_d  = count_q;
    if (pop_i) begin
      rd_ptr_d = (rd_ptr_q == last_slot) ? '0 : rd_ptr_q + PtrW'(1);
    end
    if (push_i) begin
      wr_ptr_d = (wr_ptr_q == last_slot) ? '0 : wr_ptr_q + PtrW'(1);
    end
    if (push_i && !pop_i) begin
      count_d = count_q + CountW'(1);
    end else if (pop_i && !push_i) begin
      count_d = count_q - CountW'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      count_q  <= count_d;
    end
  end

  // The storage has no reset (its contents are meaningless until written, and
  // valid_o guards them), as lowRISC's FIFOs leave their memories unreset.
  always_ff @(posedge clk_i) begin
    if (push_i) begin
      mem_q[wr_ptr_q] <= data_i;
    end
  end

endmodule
