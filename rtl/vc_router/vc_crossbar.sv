// The crossbar and its switch-traversal register (Crossbar,
// routers/vc/crossbar.hpp, with sw_alloc_delay = st_delay = 1): a flit
// granted the switch in cycle t is registered at the end of t and driven on
// its output port in t + 1, with the output VC it was allocated.
module vc_crossbar #(
  parameter int unsigned Ports = 5,
  parameter int unsigned Vcs   = 2,
  parameter int unsigned FlitW = 66,
  localparam int unsigned VcW   = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned PortW = $clog2(Ports)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [Ports*FlitW-1:0] in_flit_i,    // each input port's granted flit
  input  logic [Ports*VcW-1:0]   in_out_vc_i,  // ... and its output VC
  input  logic [Ports-1:0]       grant_i,      // per output: a flit crosses ...
  input  logic [Ports*PortW-1:0] grant_in_i,   // ... from this input port
  output logic [Ports-1:0]       out_valid_o,
  output logic [Ports*VcW-1:0]   out_vc_o,
  output logic [Ports*FlitW-1:0] out_flit_o
);

  for (genvar o = 0; o < Ports; o++) begin : g_out
    logic             valid_q;
    logic [VcW-1:0]   vc_d, vc_q;
    logic [FlitW-1:0] flit_d, flit_q;

    always_comb begin
      vc_d   = vc_q;
      flit_d = flit_q;
      for (int unsigned p = 0; p < Ports; p++) begin
        if (grant_i[o] && (grant_in_i[o*PortW +: PortW] == PortW'(p))) begin
          vc_d   = in_out_vc_i[p*VcW +: VcW];
          flit_d = in_flit_i[p*FlitW +: FlitW];
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
        vc_q    <= '0;
        flit_q  <= '0;
      end else begin
        valid_q <= grant_i[o];
        vc_q    <= vc_d;
        flit_q  <= flit_d;
      end
    end

    assign out_valid_o[o]               = valid_q;
    assign out_vc_o[o*VcW +: VcW]       = vc_q;
    assign out_flit_o[o*FlitW +: FlitW] = flit_q;
  end

endmodule
