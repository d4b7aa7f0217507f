// Round-robin arbiter, the twin of RoundRobinArbiter
// (routers/common/arbiter.hpp): the first requester at or after the pointer
// wins, else the lowest requester; the pointer moves just past the winner
// (wrapping to 0) only when update_i commits this cycle's pick. Choice and
// update are separate so an allocator can move pointers for accepted grants
// only (iSLIP).
module vc_rr_arbiter #(
  parameter int unsigned N = 4,
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            update_i,   // commit: the pick becomes the last winner
  output logic            valid_o,
  output logic [IdxW-1:0] idx_o
);

  logic [IdxW-1:0] ptr_d, ptr_q;
  logic            hi_found, lo_found;
  logic [IdxW-1:0] hi_idx, lo_idx;

  // Two priority encoders: the lowest requester at or after the pointer, and
  // the lowest requester overall (the wrap-around).
  always_comb begin
    hi_found = 1'b0;
    lo_found = 1'b0;
    hi_idx   = '0;
    lo_idx   = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (req_i[i] && !lo_found) begin
        lo_found = 1'b1;
        lo_idx   = IdxW'(i);
      end
      if (req_i[i] && !hi_found && (IdxW'(i) >= ptr_q)) begin
        hi_found = 1'b1;
        hi_idx   = IdxW'(i);
      end
    end
  end

  assign valid_o = lo_found;
  assign idx_o   = hi_found ? hi_idx : lo_idx;

  always_comb begin
    ptr_d = ptr_q;
    if (update_i && lo_found) begin
      ptr_d = (idx_o == IdxW'(N - 1)) ? '0 : idx_o + IdxW'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else begin
      ptr_q <= ptr_d;
    end
  end

endmodule
