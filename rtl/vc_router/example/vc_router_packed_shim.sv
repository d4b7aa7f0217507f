// The shim example of docs/rtl_router.md: fits a router with its own flit and
// credit format (packed_flit_router: one packed flit bus per port with a
// 2-bit flit type, a per-VC credit vector, an active-high reset) to icnsim's
// router port contract, version 1. Nothing but wiring and two small
// converters per port; no state, so it adds no cycle: the contract's timing
// is the wrapped router's.
//
// What a shim must do, in general (this one does the first four):
// - map the flit fields (here: head/tail <-> type, the bus order);
// - map the credits: the contract carries at most one credit per port per
//   cycle, as valid + VC; a one-hot per-VC vector is encoded (a router that
//   can free two entries of one port in one cycle does not fit version 1);
// - map the reset polarity and the straps the router needs;
// - drive contract_version_o;
// - if the router's pipeline differs, nothing: the contract fixes only
//   when a flit and a credit cross a port, not how many stages lie between.
module vc_router_packed_shim #(
  parameter int unsigned Dims     = 2,
  parameter int unsigned Ports    = 2 * Dims + 1,
  parameter int unsigned Vcs      = 2,
  parameter int unsigned Depth    = 4,
  parameter int unsigned PayloadW = 32,
  parameter int unsigned CoordW   = 8,
  localparam int unsigned AddrW   = Dims * CoordW,
  localparam int unsigned VcW     = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned BusW    = PayloadW + 2 * AddrW + VcW + 3
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [31:0]               router_id_i,
  input  logic [AddrW-1:0]          coord_i,
  input  logic [AddrW-1:0]          last_coord_i,
  input  logic                      torus_i,
  input  logic [7:0]                route_cfg_i,
  input  logic [255:0]              seed_i,
  input  logic [Ports-1:0]          in_valid_i,
  input  logic [Ports-1:0]          in_head_i,
  input  logic [Ports-1:0]          in_tail_i,
  input  logic [Ports*VcW-1:0]      in_vc_i,
  input  logic [Ports*AddrW-1:0]    in_src_i,
  input  logic [Ports*AddrW-1:0]    in_dst_i,
  input  logic [Ports*PayloadW-1:0] in_payload_i,
  output logic [Ports-1:0]          in_credit_valid_o,
  output logic [Ports*VcW-1:0]      in_credit_vc_o,
  output logic [Ports-1:0]          out_valid_o,
  output logic [Ports-1:0]          out_head_o,
  output logic [Ports-1:0]          out_tail_o,
  output logic [Ports*VcW-1:0]      out_vc_o,
  output logic [Ports*AddrW-1:0]    out_src_o,
  output logic [Ports*AddrW-1:0]    out_dst_o,
  output logic [Ports*PayloadW-1:0] out_payload_o,
  input  logic [Ports-1:0]          out_credit_valid_i,
  input  logic [Ports*VcW-1:0]      out_credit_vc_i,
  output logic [7:0]                contract_version_o
);

  assign contract_version_o = 8'd1;

  // The foreign router has no use for its linear id.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] unused_router_id;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_router_id = router_id_i;

  logic [Ports*BusW-1:0] bus_in, bus_out;
  logic [Ports*Vcs-1:0]  credit_up, credit_down;

  for (genvar p = 0; p < Ports; p++) begin : g_port
    logic [BusW-1:0] out_bus;

    // contract -> foreign: the flit bus, the credit vector
    assign bus_in[p*BusW +: BusW] = {in_payload_i[p*PayloadW +: PayloadW], in_dst_i[p*AddrW +: AddrW],
                                     in_src_i[p*AddrW +: AddrW], in_vc_i[p*VcW +: VcW], in_tail_i[p],
                                     in_head_i[p], in_valid_i[p]};
    for (genvar v = 0; v < Vcs; v++) begin : g_vc
      assign credit_down[p*Vcs + v] = out_credit_valid_i[p] && (out_credit_vc_i[p*VcW +: VcW] == VcW'(v));
    end

    // foreign -> contract
    assign out_bus                              = bus_out[p*BusW +: BusW];
    assign out_valid_o[p]                       = out_bus[0];
    assign out_head_o[p]                        = out_bus[1];
    assign out_tail_o[p]                        = out_bus[2];
    assign out_vc_o[p*VcW +: VcW]               = out_bus[3 +: VcW];
    assign out_src_o[p*AddrW +: AddrW]          = out_bus[3 + VcW +: AddrW];
    assign out_dst_o[p*AddrW +: AddrW]          = out_bus[3 + VcW + AddrW +: AddrW];
    assign out_payload_o[p*PayloadW +: PayloadW] = out_bus[3 + VcW + 2*AddrW +: PayloadW];

    // one-hot credit vector -> valid + VC
    always_comb begin
      in_credit_valid_o[p]         = 1'b0;
      in_credit_vc_o[p*VcW +: VcW] = '0;
      for (int unsigned v = 0; v < Vcs; v++) begin
        if (credit_up[p*Vcs + v]) begin
          in_credit_valid_o[p]         = 1'b1;
          in_credit_vc_o[p*VcW +: VcW] = VcW'(v);
        end
      end
    end
  end

  packed_flit_router #(
    .Dims    (Dims),
    .Vcs     (Vcs),
    .Depth   (Depth),
    .PayloadW(PayloadW),
    .CoordW  (CoordW)
  ) u_router (
    .clk_i,
    .rst_i        (!rst_ni),
    .my_coord_i   (coord_i),
    .last_coord_i,
    .torus_i,
    .route_cfg_i,
    .seed_i,
    .flit_i       (bus_in),
    .credit_o     (credit_up),
    .flit_o       (bus_out),
    .credit_i     (credit_down)
  );

endmodule
