// One input VC's buffer: a ring of Depth flits, the FIFO of InputUnits
// (routers/vc/input_unit.hpp). The front is offered combinationally; a flit
// pushed in a cycle is at the front from the next cycle on (the buffer write
// takes its cycle). Pushing into a full FIFO or popping an empty one is a
// protocol error (the C++ model throws); the credit protocol rules it out.
module vc_fifo #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 4,
  localparam int unsigned PtrW   = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              push_i,
  input  logic [Width-1:0]  data_i,
  input  logic              pop_i,
  output logic [Width-1:0]  data_o,
  output logic [CountW-1:0] count_o
);

  logic [Width-1:0]  mem_q [Depth];
  logic [PtrW-1:0]   rd_ptr_d, rd_ptr_q;
  logic [PtrW-1:0]   wr_ptr_d, wr_ptr_q;
  logic [CountW-1:0] count_d, count_q;

  assign data_o  = mem_q[rd_ptr_q];
  assign count_o = count_q;

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    count_d  = count_q;
    if (pop_i) begin
      rd_ptr_d = (rd_ptr_q == PtrW'(Depth - 1)) ? '0 : rd_ptr_q + PtrW'(1);
    end
    if (push_i) begin
      wr_ptr_d = (wr_ptr_q == PtrW'(Depth - 1)) ? '0 : wr_ptr_q + PtrW'(1);
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

  // The storage has no reset, as lowRISC's FIFOs: count_q guards it.
  always_ff @(posedge clk_i) begin
    if (push_i) begin
      mem_q[wr_ptr_q] <= data_i;
    end
  end

endmodule
