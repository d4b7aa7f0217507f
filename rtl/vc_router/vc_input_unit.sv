// The input unit of one port: per VC a FIFO (vc_fifo) and where its packet is
// in the pipeline, the port's share of InputUnits
// (routers/vc/input_unit.hpp) and of its route computation,
// InputUnits::compute_routes.
//
// Flits are {payload, dst, src, tail, head} (FlitW bits, head in bit 0). Per
// VC, the stage (as InputUnits::Stage: 0 idle, 1 routing, 2 waiting for a VC,
// 3 active), the routed port, the VCs the route allows and the output VC
// held.
//
// Route computation happens in the cycle VcRouter routes the head, so that
// the random tie bits are drawn in its order (docs/rtl_router.md):
// - a head written into an idle, empty VC is routed in its buffer-write
//   cycle, from the input wires; it waits one cycle (routing) and requests a
//   VC from the second cycle after its write;
// - a head already buffered behind a tail that left in the previous cycle is
//   routed from the FIFO front and requests a VC in the next cycle.
// A VC allocation grant makes the VC active: it may request the switch from
// the next cycle on. A tail winning the switch returns the VC to idle.
module vc_input_unit #(
  parameter int unsigned Vcs      = 2,
  parameter int unsigned Depth    = 4,
  parameter int unsigned Ports    = 5,
  parameter int unsigned AddrW    = 16,
  parameter int unsigned PayloadW = 32,
  localparam int unsigned FlitW   = PayloadW + 2 * AddrW + 2,
  localparam int unsigned VcW     = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned PortW   = $clog2(Ports),
  localparam int unsigned CountW  = $clog2(Depth + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // the flit arriving in this cycle
  input  logic                   in_valid_i,
  input  logic [VcW-1:0]         in_vc_i,
  input  logic [FlitW-1:0]       in_flit_i,
  // route computation: the VCs that route a head now, its addresses, the result
  output logic [Vcs-1:0]         rc_fire_o,
  output logic [Vcs*AddrW-1:0]   rc_src_o,
  output logic [Vcs*AddrW-1:0]   rc_dst_o,
  input  logic [Vcs*PortW-1:0]   rc_port_i,
  input  logic [Vcs*Vcs-1:0]     rc_mask_i,
  // VC allocation: VCs requesting, their route, the grants
  output logic [Vcs-1:0]         va_req_o,
  output logic [Vcs*PortW-1:0]   out_port_o,
  output logic [Vcs*Vcs-1:0]     vc_mask_o,
  input  logic [Vcs-1:0]         va_grant_i,
  input  logic [Vcs*VcW-1:0]     va_vc_i,
  // switch allocation: active VCs with a flit written before this cycle,
  // their output VC, the grant and the granted VC's front flit
  output logic [Vcs-1:0]         sa_active_o,
  output logic [Vcs*VcW-1:0]     out_vc_o,
  input  logic                   sa_grant_i,
  input  logic [VcW-1:0]         sa_vc_i,
  output logic [FlitW-1:0]       sa_flit_o,
  // observability (waveforms)
  output logic [Vcs*2-1:0]       stage_o,
  output logic [Vcs*CountW-1:0]  occupancy_o
);

  localparam logic [1:0] StIdle    = 2'd0;
  localparam logic [1:0] StRouting = 2'd1;
  localparam logic [1:0] StVcAlloc = 2'd2;
  localparam logic [1:0] StActive  = 2'd3;

  logic [FlitW-1:0] front [Vcs];
  logic [Vcs-1:0]   pop;

  for (genvar v = 0; v < Vcs; v++) begin : g_vc
    logic [1:0]        stage_d, stage_q;
    logic [PortW-1:0]  port_d, port_q;
    logic [Vcs-1:0]    mask_d, mask_q;
    logic [VcW-1:0]    ovc_d, ovc_q;
    logic [CountW-1:0] count;
    logic              push, arriving_head, fresh;

    assign push = in_valid_i && (in_vc_i == VcW'(v));
    assign pop[v] = sa_grant_i && (sa_vc_i == VcW'(v));

    vc_fifo #(
      .Width(FlitW),
      .Depth(Depth)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .push_i  (push),
      .data_i  (in_flit_i),
      .pop_i   (pop[v]),
      .data_o  (front[v]),
      .count_o (count)
    );

    // An idle VC routes the head at its front, or the head written now into
    // it when it is empty.
    assign arriving_head = push && in_flit_i[0];
    assign fresh         = (count == '0);
    assign rc_fire_o[v]  = (stage_q == StIdle) && (!fresh || arriving_head);
    assign rc_src_o[v*AddrW +: AddrW] = fresh ? in_flit_i[2 +: AddrW] : front[v][2 +: AddrW];
    assign rc_dst_o[v*AddrW +: AddrW] = fresh ? in_flit_i[2 + AddrW +: AddrW] : front[v][2 + AddrW +: AddrW];

    assign va_req_o[v]                 = (stage_q == StVcAlloc);
    assign out_port_o[v*PortW +: PortW] = port_q;
    assign vc_mask_o[v*Vcs +: Vcs]     = mask_q;
    assign sa_active_o[v]              = (stage_q == StActive) && (count != '0);
    assign out_vc_o[v*VcW +: VcW]      = ovc_q;
    assign stage_o[v*2 +: 2]           = stage_q;
    assign occupancy_o[v*CountW +: CountW] = count;

    always_comb begin
      stage_d = stage_q;
      port_d  = port_q;
      mask_d  = mask_q;
      ovc_d   = ovc_q;
      unique case (stage_q)
        StIdle: begin
          if (rc_fire_o[v]) begin
            stage_d = fresh ? StRouting : StVcAlloc;
            port_d  = rc_port_i[v*PortW +: PortW];
            mask_d  = rc_mask_i[v*Vcs +: Vcs];
          end
        end
        StRouting: stage_d = StVcAlloc;
        StVcAlloc: begin
          if (va_grant_i[v]) begin
            stage_d = StActive;
            ovc_d   = va_vc_i[v*VcW +: VcW];
          end
        end
        StActive: begin
          // front[v][1]: the tail bit of the flit leaving
          if (pop[v] && front[v][1]) begin
            stage_d = StIdle;
          end
        end
        default: stage_d = StIdle;
      endcase
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        stage_q <= StIdle;
        port_q  <= '0;
        mask_q  <= '0;
        ovc_q   <= '0;
      end else begin
        stage_q <= stage_d;
        port_q  <= port_d;
        mask_q  <= mask_d;
        ovc_q   <= ovc_d;
      end
    end
  end

  always_comb begin
    sa_flit_o = '0;
    for (int unsigned v = 0; v < Vcs; v++) begin
      if (sa_vc_i == VcW'(v)) begin
        sa_flit_o = front[v];
      end
    end
  end

endmodule
