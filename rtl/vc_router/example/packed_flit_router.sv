// A stand-in for a router from elsewhere, with its own port format, for the
// contract's shim example (docs/rtl_router.md, "Fitting another router"):
// - one packed flit bus per port, {payload, dst, src, vc, type, valid}, with
//   type 2'b01 head, 2'b00 body, 2'b10 tail, 2'b11 a one-flit packet;
// - credits as a per-VC vector per port (bit v: one entry of VC v freed);
// - an active-high reset input named rst_i.
// Inside it is the twin (vc_router) behind the inverse of the shim, so the
// pair shim + stand-in must behave exactly as the twin (the example's own
// check). A real foreign router replaces this file; the shim stays.
module packed_flit_router #(
  parameter int unsigned Dims     = 2,
  parameter int unsigned Vcs      = 2,
  parameter int unsigned Depth    = 4,
  parameter int unsigned PayloadW = 32,
  parameter int unsigned CoordW   = 8,
  localparam int unsigned Ports   = 2 * Dims + 1,
  localparam int unsigned AddrW   = Dims * CoordW,
  localparam int unsigned VcW     = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned BusW    = PayloadW + 2 * AddrW + VcW + 3
) (
  input  logic                   clk_i,
  input  logic                   rst_i,
  input  logic [AddrW-1:0]       my_coord_i,
  input  logic [AddrW-1:0]       last_coord_i,
  input  logic                   torus_i,
  input  logic [7:0]             route_cfg_i,
  input  logic [255:0]           seed_i,
  input  logic [Ports*BusW-1:0]  flit_i,
  output logic [Ports*Vcs-1:0]   credit_o,
  output logic [Ports*BusW-1:0]  flit_o,
  input  logic [Ports*Vcs-1:0]   credit_i
);

  logic [Ports-1:0]          in_valid, in_head, in_tail, in_credit_valid;
  logic [Ports*VcW-1:0]      in_vc, in_credit_vc;
  logic [Ports*AddrW-1:0]    in_src, in_dst;
  logic [Ports*PayloadW-1:0] in_payload;
  logic [Ports-1:0]          out_valid, out_head, out_tail, out_credit_valid;
  logic [Ports*VcW-1:0]      out_vc, out_credit_vc;
  logic [Ports*AddrW-1:0]    out_src, out_dst;
  logic [Ports*PayloadW-1:0] out_payload;

  for (genvar p = 0; p < Ports; p++) begin : g_port
    logic [BusW-1:0] bus;
    assign bus                                = flit_i[p*BusW +: BusW];
    assign in_valid[p]                        = bus[0];
    assign in_head[p]                         = bus[1];
    assign in_tail[p]                         = bus[2];
    assign in_vc[p*VcW +: VcW]                = bus[3 +: VcW];
    assign in_src[p*AddrW +: AddrW]           = bus[3 + VcW +: AddrW];
    assign in_dst[p*AddrW +: AddrW]           = bus[3 + VcW + AddrW +: AddrW];
    assign in_payload[p*PayloadW +: PayloadW] = bus[3 + VcW + 2*AddrW +: PayloadW];
    assign flit_o[p*BusW +: BusW] = {out_payload[p*PayloadW +: PayloadW], out_dst[p*AddrW +: AddrW],
                                     out_src[p*AddrW +: AddrW], out_vc[p*VcW +: VcW], out_tail[p],
                                     out_head[p], out_valid[p]};

    for (genvar v = 0; v < Vcs; v++) begin : g_vc
      assign credit_o[p*Vcs + v] = in_credit_valid[p] && (in_credit_vc[p*VcW +: VcW] == VcW'(v));
    end

    always_comb begin
      out_credit_valid[p]          = 1'b0;
      out_credit_vc[p*VcW +: VcW]  = '0;
      for (int unsigned v = 0; v < Vcs; v++) begin
        if (credit_i[p*Vcs + v]) begin
          out_credit_valid[p]         = 1'b1;
          out_credit_vc[p*VcW +: VcW] = VcW'(v);
        end
      end
    end
  end

  // The contract version output of the inner router is not part of this format.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [7:0] unused_version;
  /* verilator lint_on UNUSEDSIGNAL */

  vc_router #(
    .Dims    (Dims),
    .Vcs     (Vcs),
    .Depth   (Depth),
    .PayloadW(PayloadW),
    .CoordW  (CoordW)
  ) u_router (
    .clk_i,
    .rst_ni             (!rst_i),
    .router_id_i        (32'd0),
    .coord_i            (my_coord_i),
    .last_coord_i,
    .torus_i,
    .route_cfg_i,
    .seed_i,
    .in_valid_i         (in_valid),
    .in_head_i          (in_head),
    .in_tail_i          (in_tail),
    .in_vc_i            (in_vc),
    .in_src_i           (in_src),
    .in_dst_i           (in_dst),
    .in_payload_i       (in_payload),
    .in_credit_valid_o  (in_credit_valid),
    .in_credit_vc_o     (in_credit_vc),
    .out_valid_o        (out_valid),
    .out_head_o         (out_head),
    .out_tail_o         (out_tail),
    .out_vc_o           (out_vc),
    .out_src_o          (out_src),
    .out_dst_o          (out_dst),
    .out_payload_o      (out_payload),
    .out_credit_valid_i (out_credit_valid),
    .out_credit_vc_i    (out_credit_vc),
    .contract_version_o (unused_version)
  );

endmodule
