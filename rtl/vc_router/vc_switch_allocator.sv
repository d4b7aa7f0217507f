// The switch allocator (SwitchAllocator, routers/vc/switch_allocator.hpp):
// separable input-first at port level.
// 1. each input port's round-robin arbiter (over its Vcs VCs) picks one VC
//    that is ready (active, a flit written before this cycle, a credit);
// 2. each output port's round-robin arbiter (over the Ports input ports)
//    picks one of the input ports whose pick leads to it.
// Both pointers move only on final grants.
module vc_switch_allocator #(
  parameter int unsigned Ports = 5,
  parameter int unsigned Vcs   = 2,
  localparam int unsigned VcW   = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned PortW = $clog2(Ports)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [Ports*Vcs-1:0]   ready_i,      // input port p's VCs at [p*Vcs +: Vcs]
  input  logic [Ports*Vcs*PortW-1:0] out_port_i, // each input VC's output port
  output logic [Ports-1:0]       in_grant_o,   // per input port: a VC won ...
  output logic [Ports*VcW-1:0]   in_vc_o,      // ... this one
  output logic [Ports-1:0]       out_grant_o,  // per output port: an input won ...
  output logic [Ports*PortW-1:0] out_in_o      // ... this input port
);

  logic [Ports-1:0]       pick_valid;
  logic [VcW-1:0]         pick_vc [Ports];
  logic [PortW-1:0]       pick_out [Ports];
  logic [Ports*Ports-1:0] wanted_by;   // output o: the input ports whose pick leads to it, at [o*Ports +: Ports]
  logic [PortW-1:0]       win [Ports];

  for (genvar p = 0; p < Ports; p++) begin : g_in
    vc_rr_arbiter #(.N(Vcs)) u_arb (
      .clk_i,
      .rst_ni,
      .req_i    (ready_i[p*Vcs +: Vcs]),
      .update_i (in_grant_o[p]),
      .valid_o  (pick_valid[p]),
      .idx_o    (pick_vc[p])
    );

    always_comb begin
      pick_out[p] = '0;
      for (int unsigned v = 0; v < Vcs; v++) begin
        if (pick_vc[p] == VcW'(v)) begin
          pick_out[p] = out_port_i[(p*Vcs + v)*PortW +: PortW];
        end
      end
    end
  end

  always_comb begin
    wanted_by = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      for (int unsigned o = 0; o < Ports; o++) begin
        if (pick_valid[p] && (pick_out[p] == PortW'(o))) begin
          wanted_by[o*Ports + p] = 1'b1;
        end
      end
    end
  end

  for (genvar o = 0; o < Ports; o++) begin : g_out
    vc_rr_arbiter #(.N(Ports)) u_arb (
      .clk_i,
      .rst_ni,
      .req_i    (wanted_by[o*Ports +: Ports]),
      .update_i (1'b1),
      .valid_o  (out_grant_o[o]),
      .idx_o    (win[o])
    );
    assign out_in_o[o*PortW +: PortW] = win[o];
  end

  always_comb begin
    in_grant_o = '0;
    in_vc_o    = '0;
    for (int unsigned o = 0; o < Ports; o++) begin
      for (int unsigned p = 0; p < Ports; p++) begin
        if (out_grant_o[o] && (win[o] == PortW'(p))) begin
          in_grant_o[p]            = 1'b1;
          in_vc_o[p*VcW +: VcW]    = pick_vc[p];
        end
      end
    end
  end

endmodule
