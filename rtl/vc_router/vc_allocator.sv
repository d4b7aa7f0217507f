// The VC allocator (VcAllocator over SeparableAllocator, iSLIP with one
// iteration: routers/common/separable_allocator.hpp). Requesters are the input
// VCs i = port * Vcs + vc, resources the output VCs o = port * Vcs + vc.
//
// 1. every input VC with requests picks one output VC with its round-robin
//    arbiter (over all N output VCs, as the C++ arbiter's pointer is);
// 2. every output VC picks one of the input VCs that picked it with its own
//    round-robin arbiter (over all N input VCs).
// Both pointers move only for grants (iSLIP); a losing pick moves nothing.
module vc_allocator #(
  parameter int unsigned N = 10,     // Ports * Vcs
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N*N-1:0]  req_i,       // input VC i's requests at [i*N +: N]
  output logic [N-1:0]    grant_o,     // per input VC: granted ...
  output logic [N*IdxW-1:0] grant_idx_o, // ... this output VC
  output logic [N-1:0]    claim_o      // per output VC: granted to someone
);

  logic [N-1:0]      in_valid;
  logic [IdxW-1:0]   in_idx [N];
  logic [N-1:0]      in_update;
  logic [N*N-1:0]    picked_by;   // output VC o: the input VCs that picked it, at [o*N +: N]
  logic [N-1:0]      out_valid;
  logic [IdxW-1:0]   out_idx [N];

  for (genvar i = 0; i < N; i++) begin : g_in
    vc_rr_arbiter #(.N(N)) u_arb (
      .clk_i,
      .rst_ni,
      .req_i    (req_i[i*N +: N]),
      .update_i (in_update[i]),
      .valid_o  (in_valid[i]),
      .idx_o    (in_idx[i])
    );
  end

  always_comb begin
    picked_by = '0;
    for (int unsigned i = 0; i < N; i++) begin
      for (int unsigned o = 0; o < N; o++) begin
        if (in_valid[i] && (in_idx[i] == IdxW'(o))) begin
          picked_by[o*N + i] = 1'b1;
        end
      end
    end
  end

  for (genvar o = 0; o < N; o++) begin : g_out
    vc_rr_arbiter #(.N(N)) u_arb (
      .clk_i,
      .rst_ni,
      .req_i    (picked_by[o*N +: N]),
      .update_i (1'b1),              // every output grant is final (one iteration)
      .valid_o  (out_valid[o]),
      .idx_o    (out_idx[o])
    );
  end

  always_comb begin
    grant_o     = '0;
    grant_idx_o = '0;
    for (int unsigned o = 0; o < N; o++) begin
      for (int unsigned i = 0; i < N; i++) begin
        if (out_valid[o] && (out_idx[o] == IdxW'(i))) begin
          grant_o[i]                  = 1'b1;
          grant_idx_o[i*IdxW +: IdxW] = IdxW'(o);
        end
      end
    end
  end

  assign in_update = grant_o;
  assign claim_o   = out_valid;

endmodule
