// Dimension-order route computation for one input port, combinational:
// the routes of icnsim's MeshTorusTopology (routers/vc/vc_topology.cpp) with
// one VC, lowest dimension first. Ports: 0 local, 1 + 2d toward +d, 2 + 2d toward -d.
// - mesh: toward the destination's coordinate;
// - torus: the shorter way round, a tie (exactly k/2 either way) +.
// At the destination: port 0.
//
// Departure: with one VC there are no dateline classes, and a tie always
// goes + (route_cfg_i's random ties are not drawn): this router has no
// random generator. On a torus, as for icnsim's own routers with
// router.dateline=false, dimension order with one VC can deadlock.
module wh_route_compute #(
  parameter int unsigned Dims   = 2,
  parameter int unsigned CoordW = 8,
  localparam int unsigned AddrW = Dims * CoordW,
  localparam int unsigned Ports = 2 * Dims + 1,
  localparam int unsigned PortW = $clog2(Ports)
) (
  input  logic [AddrW-1:0] coord_i,       // this router's coordinates
  input  logic [AddrW-1:0] last_coord_i,  // per dimension k - 1
  input  logic             torus_i,
  input  logic [AddrW-1:0] dst_i,
  output logic [PortW-1:0] port_o
);

  logic [Dims-1:0] differs, plus;

  for (genvar d = 0; d < Dims; d++) begin : g_dim
    logic [CoordW-1:0] here, there;
    logic [CoordW:0]   ring, ahead;   // k, and (there - here) mod k

    assign here  = coord_i[d*CoordW +: CoordW];
    assign there = dst_i[d*CoordW +: CoordW];
    assign ring  = {1'b0, last_coord_i[d*CoordW +: CoordW]} + (CoordW+1)'(1);
    assign ahead = (there >= here) ? {1'b0, there - here} : ring - {1'b0, here - there};

    assign differs[d] = (here != there);
    // Torus: + when ahead <= k - ahead, i.e. 2 ahead <= k (ties +).
    assign plus[d] = torus_i ? ({ahead, 1'b0} <= {1'b0, ring}) : (there > here);
  end

  always_comb begin
    logic found;
    found  = 1'b0;
    port_o = '0;
    for (int unsigned d = 0; d < Dims; d++) begin
      if (differs[d] && !found) begin
        found  = 1'b1;
        port_o = plus[d] ? PortW'(1 + 2 * d) : PortW'(2 + 2 * d);
      end
    end
  end

endmodule
