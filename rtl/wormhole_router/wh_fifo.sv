// The input buffer of one port: Depth flits in a ring. The front is offered
// combinationally from the cycle after its write (the buffer write takes a
// cycle); the write slot is the read pointer plus the occupancy, so only the
// read pointer and the occupancy are registers. Pushing into a full buffer or
// popping an empty one cannot happen under the contract's credits: the
// upstream sender holds at most Depth credits for it.
module wh_fifo #(
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
  output logic              valid_o,   // a flit written before this cycle is at the front
  output logic [Width-1:0]  front_o
);

  logic [Width-1:0]  slots_q [Depth];
  logic [PtrW-1:0]   head_d, head_q;
  logic [CountW-1:0] fill_d, fill_q;
  logic [PtrW-1:0]   tail_slot;

  // (head + fill) mod Depth, with fill <= Depth and head < Depth.
  always_comb begin
    logic [PtrW:0] sum;
    sum = {1'b0, head_q} + (PtrW+1)'(fill_q);
    if (sum >= (PtrW+1)'(Depth)) begin
      sum = sum - (PtrW+1)'(Depth);
    end
    tail_slot = sum[PtrW-1:0];
  end

  assign valid_o = (fill_q != '0);
  assign front_o = slots_q[head_q];

  always_comb begin
    head_d = head_q;
    fill_d = fill_q;
    if (pop_i) begin
      head_d = (head_q == PtrW'(Depth - 1)) ? '0 : head_q + PtrW'(1);
    end
    unique case ({push_i, pop_i})
      2'b10:   fill_d = fill_q + CountW'(1);
      2'b01:   fill_d = fill_q - CountW'(1);
      default: fill_d = fill_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q <= '0;
      fill_q <= '0;
    end else begin
      head_q <= head_d;
      fill_q <= fill_d;
    end
  end

  // No reset on the storage (as lowRISC's FIFOs): fill_q says which slots hold flits.
  always_ff @(posedge clk_i) begin
    if (push_i) begin
      slots_q[tail_slot] <= data_i;
    end
  end

endmodule
