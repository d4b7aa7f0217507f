// wormhole_router: an input-queued wormhole router with one buffer (one VC)
// per port and credit flow control, on a k-ary n-dimensional mesh (n = Dims
// = 1..3), implementing icnsim's router port contract, version 1
// (docs/rtl_router.md, "A second router: wormhole, one VC"). Written apart
// from the VC router twin (rtl/vc_router/): no VC allocation, an output is
// held by one packet from its head to its tail, and a matrix arbiter per
// output chooses among the heads that want it.
//
// Pipeline per head flit (three cycles in the router, the twin's four less
// its VC allocation):
//   cycle a     buffer write (the flit is on in_*_i)
//   cycle a+1   route computation, from the buffer's front; registered
//   cycle a+2   switch arbitration at the output (wh_output_port): the head
//               wins a free output, leaves its buffer, its credit goes
//               upstream (in_credit_*_o, combinational), a credit of the
//               output is spent, and the output is held until the tail
//   cycle a+3   switch traversal: the flit is on out_*_o
// Body and tail flits cross in the cycle after their buffer write, when a
// credit is there, without arbitration; out one cycle later.
//
// Port p's fields sit at [p*W +: W] of each flat vector (Yosys 0.23 does not
// parse packed 2-D ports). Ports: 0 local (the NIC), 1 + 2d toward +d,
// 2 + 2d toward -d. Addresses are coordinates, x0 in the low CoordW bits.
module wormhole_router #(
  parameter int unsigned Dims     = 2,
  parameter int unsigned Ports    = 2 * Dims + 1,
  parameter int unsigned Vcs      = 1,
  parameter int unsigned Depth    = 4,
  parameter int unsigned PayloadW = 32,
  parameter int unsigned CoordW   = 8,
  localparam int unsigned AddrW   = Dims * CoordW,
  localparam int unsigned VcW     = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned PortW   = $clog2(Ports),
  localparam int unsigned FlitW   = PayloadW + 2 * AddrW + 2
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // straps, constant while out of reset
  input  logic [31:0]               router_id_i,
  input  logic [AddrW-1:0]          coord_i,
  input  logic [AddrW-1:0]          last_coord_i,
  input  logic                      torus_i,
  input  logic [7:0]                route_cfg_i,
  input  logic [255:0]              seed_i,
  // input ports: flits in, credits back upstream
  input  logic [Ports-1:0]          in_valid_i,
  input  logic [Ports-1:0]          in_head_i,
  input  logic [Ports-1:0]          in_tail_i,
  input  logic [Ports*VcW-1:0]      in_vc_i,
  input  logic [Ports*AddrW-1:0]    in_src_i,
  input  logic [Ports*AddrW-1:0]    in_dst_i,
  input  logic [Ports*PayloadW-1:0] in_payload_i,
  output logic [Ports-1:0]          in_credit_valid_o,
  output logic [Ports*VcW-1:0]      in_credit_vc_o,
  // output ports: flits out, credits from downstream
  output logic [Ports-1:0]          out_valid_o,
  output logic [Ports-1:0]          out_head_o,
  output logic [Ports-1:0]          out_tail_o,
  output logic [Ports*VcW-1:0]      out_vc_o,
  output logic [Ports*AddrW-1:0]    out_src_o,
  output logic [Ports*AddrW-1:0]    out_dst_o,
  output logic [Ports*PayloadW-1:0] out_payload_o,
  input  logic [Ports-1:0]          out_credit_valid_i,
  input  logic [Ports*VcW-1:0]      out_credit_vc_i,
  // the contract version this module implements
  output logic [7:0]                contract_version_o
);

  // A mesh/torus router with one buffer per port.
  if (Ports != 2 * Dims + 1) begin : g_bad_ports
    $error("wormhole_router: Ports must be 2 * Dims + 1");
  end
  if (Vcs != 1) begin : g_bad_vcs
    $error("wormhole_router: one VC per port (Vcs = 1, icnsim's router.vcs=1)");
  end

  assign contract_version_o = 8'd1;

  // Contract inputs this router has no use for: the linear id, the routing
  // options of VC routers (dateline classes, random ties), the generator's
  // seed, and the VC fields, always 0 with one VC.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]        unused_router_id;
  logic [7:0]         unused_route_cfg;
  logic [255:0]       unused_seed;
  logic [Ports*VcW-1:0] unused_in_vc, unused_credit_vc;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_router_id = router_id_i;
  assign unused_route_cfg = route_cfg_i;
  assign unused_seed      = seed_i;
  assign unused_in_vc     = in_vc_i;
  assign unused_credit_vc = out_credit_vc_i;

  logic [Ports-1:0]       head_req, flit_ready, send;
  logic [Ports*PortW-1:0] req_port;
  logic [Ports*FlitW-1:0] front_flit, out_flit;
  logic [Ports-1:0]       out_send;
  logic [Ports*PortW-1:0] out_send_in;

  // ------------------------------------------------------------ input ports
  for (genvar p = 0; p < Ports; p++) begin : g_input
    logic [FlitW-1:0] in_flit;

    assign in_flit = {in_payload_i[p*PayloadW +: PayloadW], in_dst_i[p*AddrW +: AddrW],
                      in_src_i[p*AddrW +: AddrW], in_tail_i[p], in_head_i[p]};

    wh_input_port #(
      .Dims    (Dims),
      .Depth   (Depth),
      .PayloadW(PayloadW),
      .CoordW  (CoordW)
    ) u_input (
      .clk_i,
      .rst_ni,
      .coord_i      (coord_i),
      .last_coord_i (last_coord_i),
      .torus_i      (torus_i),
      .in_valid_i   (in_valid_i[p]),
      .in_flit_i    (in_flit),
      .head_req_o   (head_req[p]),
      .flit_ready_o (flit_ready[p]),
      .port_o       (req_port[p*PortW +: PortW]),
      .flit_o       (front_flit[p*FlitW +: FlitW]),
      .send_i       (send[p])
    );

    // The input crosses when the output it asks for takes it: at most one
    // output names it, the one in its port register.
    always_comb begin
      send[p] = 1'b0;
      for (int unsigned o = 0; o < Ports; o++) begin
        if (out_send[o] && (out_send_in[o*PortW +: PortW] == PortW'(p))) begin
          send[p] = 1'b1;
        end
      end
    end

    // A credit upstream for every flit leaving the buffer, in that cycle.
    assign in_credit_valid_o[p]         = send[p];
    assign in_credit_vc_o[p*VcW +: VcW] = '0;
  end

  // ----------------------------------------------------------- output ports
  for (genvar o = 0; o < Ports; o++) begin : g_output
    logic [Ports-1:0] wants_head, wants_flit;

    always_comb begin
      for (int unsigned p = 0; p < Ports; p++) begin
        wants_head[p] = head_req[p] && (req_port[p*PortW +: PortW] == PortW'(o));
        wants_flit[p] = flit_ready[p] && (req_port[p*PortW +: PortW] == PortW'(o));
      end
    end

    wh_output_port #(
      .Ports(Ports),
      .Depth(Depth),
      .FlitW(FlitW)
    ) u_output (
      .clk_i,
      .rst_ni,
      .head_req_i     (wants_head),
      .flit_ready_i   (wants_flit),
      .flit_i         (front_flit),
      .credit_valid_i (out_credit_valid_i[o]),
      .send_o         (out_send[o]),
      .send_in_o      (out_send_in[o*PortW +: PortW]),
      .out_valid_o    (out_valid_o[o]),
      .out_flit_o     (out_flit[o*FlitW +: FlitW])
    );

    assign out_head_o[o]                         = out_flit[o*FlitW];
    assign out_tail_o[o]                         = out_flit[o*FlitW + 1];
    assign out_vc_o[o*VcW +: VcW]                = '0;
    assign out_src_o[o*AddrW +: AddrW]           = out_flit[o*FlitW + 2 +: AddrW];
    assign out_dst_o[o*AddrW +: AddrW]           = out_flit[o*FlitW + 2 + AddrW +: AddrW];
    assign out_payload_o[o*PayloadW +: PayloadW] = out_flit[o*FlitW + 2 + 2*AddrW +: PayloadW];
  end

endmodule
