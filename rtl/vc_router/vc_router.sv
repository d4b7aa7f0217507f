// vc_router: the RTL twin of icnsim's VcRouter (routers/vc/vc_router.*), an
// input-queued virtual-channel wormhole router with credit flow control, on
// a k-ary n-dimensional mesh or torus (n = Dims = 1..3), implementing icnsim's
// router port contract, version 1 (docs/rtl_router.md).
//
// Pipeline per head flit (VcRouter with routing, VC allocation, switch
// allocation and switch traversal delays of 1, as preset=booksim sets them):
//   cycle a     buffer write (the flit is on in_*_i); a head entering an idle,
//               empty VC is routed now (vc_route_compute)
//   cycle a+1   routing
//   cycle a+2   VC allocation (vc_allocator)
//   cycle a+3   switch allocation (vc_switch_allocator): the flit leaves its
//               FIFO, its credit goes upstream (in_credit_*_o, combinational),
//               a credit of its output VC is spent
//   cycle a+4   switch traversal: the flit is on out_*_o (vc_crossbar's register)
// Body and tail flits take the switch allocation and traversal stages only.
// docs/rtl_router.md maps each C++ block and stage to the module and
// register here.
//
// Port p's fields sit at [p*W +: W] of each flat vector (Yosys 0.23 does not
// parse packed 2-D ports). Ports: 0 local (the NIC), 1 + 2d toward +d,
// 2 + 2d toward -d. Addresses are coordinates, x0 in the low CoordW bits.
module vc_router #(
  parameter int unsigned Dims     = 2,
  parameter int unsigned Ports    = 2 * Dims + 1,
  parameter int unsigned Vcs      = 2,
  parameter int unsigned Depth    = 4,
  parameter int unsigned PayloadW = 32,
  parameter int unsigned CoordW   = 8,
  localparam int unsigned AddrW   = Dims * CoordW,
  localparam int unsigned VcW     = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned PortW   = $clog2(Ports),
  localparam int unsigned FlitW   = PayloadW + 2 * AddrW + 2,
  localparam int unsigned CountW  = $clog2(Depth + 1),
  localparam int unsigned N       = Ports * Vcs,
  localparam int unsigned IdxW    = (N > 1) ? $clog2(N) : 1
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

  // The twin is a mesh/torus router: its port numbering needs 2 * Dims + 1 ports.
  if (Ports != 2 * Dims + 1) begin : g_bad_ports
    $error("vc_router: Ports must be 2 * Dims + 1");
  end

  assign contract_version_o = 8'd1;

  // The twin routes by coordinates; the linear id and the route_cfg_i bits
  // above 2 are part of the contract, not used here.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] unused_router_id;
  logic [4:0]  unused_route_cfg;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_router_id = router_id_i;
  assign unused_route_cfg = route_cfg_i[7:3];

  // ---------------------------------------------------------------- signals
  logic [N-1:0]        rc_fire, rc_tie, rc_coin;
  logic [N*AddrW-1:0]  rc_src, rc_dst;
  logic [N*PortW-1:0]  rc_port;
  logic [N*Vcs-1:0]    rc_mask;
  logic [N-1:0]        va_req;
  logic [N*PortW-1:0]  route_port;
  logic [N*Vcs-1:0]    route_mask;
  logic [N*N-1:0]      va_req_mat;
  logic [N-1:0]        va_grant;
  logic [N*IdxW-1:0]   va_grant_idx;
  logic [N*VcW-1:0]    va_vc;
  logic [N-1:0]        va_claim;
  logic [N-1:0]        sa_active, sa_ready;
  logic [N*VcW-1:0]    out_vc;
  logic [Ports-1:0]    sa_in_grant, sa_out_grant;
  logic [Ports*VcW-1:0]   sa_in_vc;
  logic [Ports*PortW-1:0] sa_out_in;
  logic [Ports*FlitW-1:0] sa_flit;
  logic [Ports*VcW-1:0]   sa_out_vc;
  logic [Ports-1:0]       sa_tail;
  logic [N-1:0]        credit_ok;   // output VC o has a credit this cycle
  logic [N-1:0]        vc_free;     // output VC o is held by no packet
  logic [Ports*FlitW-1:0] st_flit;

  // ------------------------------------------------------------ input units
  for (genvar p = 0; p < Ports; p++) begin : g_input
    logic [FlitW-1:0]     in_flit;
    logic [Vcs*2-1:0]     stage;
    logic [Vcs*CountW-1:0] occupancy;

    assign in_flit = {in_payload_i[p*PayloadW +: PayloadW], in_dst_i[p*AddrW +: AddrW],
                      in_src_i[p*AddrW +: AddrW], in_tail_i[p], in_head_i[p]};

    vc_input_unit #(
      .Vcs     (Vcs),
      .Depth   (Depth),
      .Ports   (Ports),
      .AddrW   (AddrW),
      .PayloadW(PayloadW)
    ) u_input (
      .clk_i,
      .rst_ni,
      .in_valid_i  (in_valid_i[p]),
      .in_vc_i     (in_vc_i[p*VcW +: VcW]),
      .in_flit_i   (in_flit),
      .rc_fire_o   (rc_fire[p*Vcs +: Vcs]),
      .rc_src_o    (rc_src[p*Vcs*AddrW +: Vcs*AddrW]),
      .rc_dst_o    (rc_dst[p*Vcs*AddrW +: Vcs*AddrW]),
      .rc_port_i   (rc_port[p*Vcs*PortW +: Vcs*PortW]),
      .rc_mask_i   (rc_mask[p*Vcs*Vcs +: Vcs*Vcs]),
      .va_req_o    (va_req[p*Vcs +: Vcs]),
      .out_port_o  (route_port[p*Vcs*PortW +: Vcs*PortW]),
      .vc_mask_o   (route_mask[p*Vcs*Vcs +: Vcs*Vcs]),
      .va_grant_i  (va_grant[p*Vcs +: Vcs]),
      .va_vc_i     (va_vc[p*Vcs*VcW +: Vcs*VcW]),
      .sa_active_o (sa_active[p*Vcs +: Vcs]),
      .out_vc_o    (out_vc[p*Vcs*VcW +: Vcs*VcW]),
      .sa_grant_i  (sa_in_grant[p]),
      .sa_vc_i     (sa_in_vc[p*VcW +: VcW]),
      .sa_flit_o   (sa_flit[p*FlitW +: FlitW]),
      .stage_o     (stage),
      .occupancy_o (occupancy)
    );

    // The granted VC's output VC and tail bit.
    always_comb begin
      sa_out_vc[p*VcW +: VcW] = '0;
      for (int unsigned v = 0; v < Vcs; v++) begin
        if (sa_in_vc[p*VcW +: VcW] == VcW'(v)) begin
          sa_out_vc[p*VcW +: VcW] = out_vc[(p*Vcs + v)*VcW +: VcW];
        end
      end
    end
    assign sa_tail[p] = sa_flit[p*FlitW + 1];

    // Credits upstream: the entry freed by this cycle's switch grant.
    assign in_credit_valid_o[p]        = sa_in_grant[p];
    assign in_credit_vc_o[p*VcW +: VcW] = sa_in_vc[p*VcW +: VcW];

    // Observability only (waveforms of a co-simulation read the registers).
    /* verilator lint_off UNUSEDSIGNAL */
    logic [Vcs*2-1:0]      unused_stage;
    logic [Vcs*CountW-1:0] unused_occupancy;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_stage     = stage;
    assign unused_occupancy = occupancy;
  end

  // ------------------------------------------------------- route computation
  for (genvar i = 0; i < N; i++) begin : g_route
    vc_route_compute #(
      .Dims  (Dims),
      .CoordW(CoordW),
      .Vcs   (Vcs)
    ) u_route (
      .coord_i       (coord_i),
      .last_coord_i  (last_coord_i),
      .torus_i       (torus_i),
      .dateline_i    (route_cfg_i[0]),
      .whole_dim_i   (route_cfg_i[1]),
      .random_ties_i (route_cfg_i[2]),
      .src_i         (rc_src[i*AddrW +: AddrW]),
      .dst_i         (rc_dst[i*AddrW +: AddrW]),
      .tie_o         (rc_tie[i]),
      .coin_i        (rc_coin[i]),
      .port_o        (rc_port[i*PortW +: PortW]),
      .vc_mask_o     (rc_mask[i*Vcs +: Vcs])
    );
  end

  // One draw per tie routed this cycle, in input-VC order.
  vc_tie_rng #(.N(N)) u_rng (
    .clk_i,
    .rst_ni,
    .seed_i (seed_i),
    .req_i  (rc_fire & rc_tie),
    .coin_o (rc_coin)
  );

  // ----------------------------------------------------------- VC allocation
  // Input VC i asks for the free output VCs of its routed port that its route
  // allows (free as of the start of the cycle: a tail leaving now frees its
  // VC for the next cycle).
  always_comb begin
    va_req_mat = '0;
    for (int unsigned i = 0; i < N; i++) begin
      for (int unsigned q = 0; q < Ports; q++) begin
        if (va_req[i] && (route_port[i*PortW +: PortW] == PortW'(q))) begin
          va_req_mat[i*N + q*Vcs +: Vcs] = vc_free[q*Vcs +: Vcs] & route_mask[i*Vcs +: Vcs];
        end
      end
    end
  end

  vc_allocator #(.N(N)) u_vc_alloc (
    .clk_i,
    .rst_ni,
    .req_i       (va_req_mat),
    .grant_o     (va_grant),
    .grant_idx_o (va_grant_idx),
    .claim_o     (va_claim)
  );

  // The output VC granted: its index within the (routed) port.
  always_comb begin
    va_vc = '0;
    for (int unsigned i = 0; i < N; i++) begin
      for (int unsigned o = 0; o < N; o++) begin
        if (va_grant_idx[i*IdxW +: IdxW] == IdxW'(o)) begin
          va_vc[i*VcW +: VcW] = VcW'(o % Vcs);
        end
      end
    end
  end

  // ------------------------------------------------------- switch allocation
  always_comb begin
    sa_ready = '0;
    for (int unsigned i = 0; i < N; i++) begin
      for (int unsigned o = 0; o < N; o++) begin
        if (sa_active[i] && (route_port[i*PortW +: PortW] == PortW'(o / Vcs)) &&
            (out_vc[i*VcW +: VcW] == VcW'(o % Vcs))) begin
          sa_ready[i] = credit_ok[o];
        end
      end
    end
  end

  vc_switch_allocator #(
    .Ports(Ports),
    .Vcs  (Vcs)
  ) u_sw_alloc (
    .clk_i,
    .rst_ni,
    .ready_i     (sa_ready),
    .out_port_i  (route_port),
    .in_grant_o  (sa_in_grant),
    .in_vc_o     (sa_in_vc),
    .out_grant_o (sa_out_grant),
    .out_in_o    (sa_out_in)
  );

  // ---------------------------------------------------------------- crossbar
  vc_crossbar #(
    .Ports(Ports),
    .Vcs  (Vcs),
    .FlitW(FlitW)
  ) u_crossbar (
    .clk_i,
    .rst_ni,
    .in_flit_i   (sa_flit),
    .in_out_vc_i (sa_out_vc),
    .grant_i     (sa_out_grant),
    .grant_in_i  (sa_out_in),
    .out_valid_o (out_valid_o),
    .out_vc_o    (out_vc_o),
    .out_flit_o  (st_flit)
  );

  for (genvar o = 0; o < Ports; o++) begin : g_out_fields
    assign out_head_o[o]                      = st_flit[o*FlitW];
    assign out_tail_o[o]                      = st_flit[o*FlitW + 1];
    assign out_src_o[o*AddrW +: AddrW]        = st_flit[o*FlitW + 2 +: AddrW];
    assign out_dst_o[o*AddrW +: AddrW]        = st_flit[o*FlitW + 2 + AddrW +: AddrW];
    assign out_payload_o[o*PayloadW +: PayloadW] = st_flit[o*FlitW + 2 + 2*AddrW +: PayloadW];
  end

  // ------------------------------------------------------------ output units
  for (genvar o = 0; o < Ports; o++) begin : g_output
    logic             consume, release_vc;
    logic [VcW-1:0]   consume_vc;
    logic [Vcs*CountW-1:0] credits;

    // The flit granted to output o: its input port's output VC and tail bit.
    always_comb begin
      consume    = sa_out_grant[o];
      consume_vc = '0;
      release_vc = 1'b0;
      for (int unsigned p = 0; p < Ports; p++) begin
        if (sa_out_in[o*PortW +: PortW] == PortW'(p)) begin
          consume_vc = sa_out_vc[p*VcW +: VcW];
          release_vc = sa_tail[p];
        end
      end
    end

    vc_output_unit #(
      .Vcs  (Vcs),
      .Depth(Depth)
    ) u_output (
      .clk_i,
      .rst_ni,
      .credit_valid_i (out_credit_valid_i[o]),
      .credit_vc_i    (out_credit_vc_i[o*VcW +: VcW]),
      .consume_i      (consume),
      .consume_vc_i   (consume_vc),
      .release_i      (release_vc),
      .claim_i        (va_claim[o*Vcs +: Vcs]),
      .credit_ok_o    (credit_ok[o*Vcs +: Vcs]),
      .free_o         (vc_free[o*Vcs +: Vcs]),
      .credits_o      (credits)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    logic [Vcs*CountW-1:0] unused_credits;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_credits = credits;
  end

endmodule
