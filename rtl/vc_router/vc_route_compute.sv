// Route computation for one input VC: MeshTorusTopology::route_with
// (routers/vc/vc_topology.cpp), dimension order, lowest dimension first.
// Purely combinational; the input unit registers the result.
//
// Addresses are coordinates, x0 in the low CoordW bits (docs/rtl_router.md,
// "Addresses"). Ports: 0 local, 1 + 2d toward +d, 2 + 2d toward -d.
// - mesh: toward the destination's coordinate;
// - torus: the shorter way round; a tie (exactly k/2 either way) goes +, or,
//   with random ties, the way coin_i says (0: +), coin_i being the router's
//   next random bit, requested by tie_o (tie_o never depends on coin_i);
// - torus with datelines: the lower half of the VCs, or the upper half
//   (upper = all & ~lower, lower = the Vcs/2 lowest) when the packet has
//   crossed the dimension's wrap link with this hop (after_crossing), or for
//   the whole dimension when the destination's coordinate is below the
//   source's (whole_dimension, BookSim 2's rule).
// At the destination: port 0, every VC.
module vc_route_compute #(
  parameter int unsigned Dims   = 2,
  parameter int unsigned CoordW = 8,
  parameter int unsigned Vcs    = 2,
  localparam int unsigned AddrW = Dims * CoordW,
  localparam int unsigned Ports = 2 * Dims + 1,
  localparam int unsigned PortW = $clog2(Ports)
) (
  // straps
  input  logic [AddrW-1:0] coord_i,        // this router's coordinates
  input  logic [AddrW-1:0] last_coord_i,   // per dimension k - 1
  input  logic             torus_i,
  input  logic             dateline_i,     // torus: VC classes
  input  logic             whole_dim_i,    // torus: whole_dimension classes
  input  logic             random_ties_i,  // torus: ties by coin_i
  // the head
  input  logic [AddrW-1:0] src_i,
  input  logic [AddrW-1:0] dst_i,
  output logic             tie_o,
  input  logic             coin_i,
  output logic [PortW-1:0] port_o,
  output logic [Vcs-1:0]   vc_mask_o
);

  localparam int unsigned Half = Vcs / 2;
  localparam logic [Vcs-1:0] AllVcs   = {Vcs{1'b1}};
  // The lower class: the Half lowest VCs (a mask of Vcs bits built without a
  // cast: Yosys 0.23 does not parse them).
  localparam logic [Vcs-1:0] LowerVcs = AllVcs >> (Vcs - Half);

  // Per dimension; the first dimension whose coordinate differs decides.
  logic [Dims-1:0]  differs;
  logic [Dims-1:0]  plus_fixed;   // the direction when it is not a coin toss
  logic [Dims-1:0]  is_tie;
  logic [Dims-1:0]  plus;         // the direction taken (a coin only decides a tie)
  logic [Dims-1:0]  upper;        // the upper dateline class

  for (genvar d = 0; d < Dims; d++) begin : g_dim
    logic [CoordW-1:0] x, t, s, last;
    logic [CoordW:0]   k, forward, backward;
    logic [CoordW-1:0] next_plus, next_minus;
    logic              crossed_plus, crossed_minus;

    assign x    = coord_i[d*CoordW +: CoordW];
    assign t    = dst_i[d*CoordW +: CoordW];
    assign s    = src_i[d*CoordW +: CoordW];
    assign last = last_coord_i[d*CoordW +: CoordW];
    assign k    = {1'b0, last} + (CoordW+1)'(1);

    assign differs[d] = (x != t);
    // forward = (t - x) mod k, backward = k - forward.
    assign forward  = (t >= x) ? {1'b0, t - x} : ({1'b0, t} + k - {1'b0, x});
    assign backward = k - forward;
    assign is_tie[d] = torus_i && (forward == backward);
    assign plus_fixed[d] = torus_i ? (forward <= backward) : (t > x);
    assign plus[d]       = (is_tie[d] && random_ties_i) ? !coin_i : plus_fixed[d];

    // after_crossing: the next coordinate has passed round the source's.
    assign next_plus     = (x == last) ? '0 : x + CoordW'(1);
    assign next_minus    = (x == '0) ? last : x - CoordW'(1);
    assign crossed_plus  = next_plus < s;
    assign crossed_minus = next_minus > s;

    always_comb begin
      if (whole_dim_i) begin
        upper[d] = t < s;
      end else if (plus[d]) begin
        upper[d] = crossed_plus;
      end else begin
        upper[d] = crossed_minus;
      end
    end
  end

  // The coin request, kept apart from what the coin decides (no
  // combinational path from coin_i to tie_o, even through one variable).
  always_comb begin
    logic found;
    found = 1'b0;
    tie_o = 1'b0;
    for (int unsigned d = 0; d < Dims; d++) begin
      if (differs[d] && !found) begin
        found = 1'b1;
        tie_o = is_tie[d] && random_ties_i;
      end
    end
  end

  always_comb begin
    logic found;
    found     = 1'b0;
    port_o    = '0;
    vc_mask_o = AllVcs;
    for (int unsigned d = 0; d < Dims; d++) begin
      if (differs[d] && !found) begin
        found  = 1'b1;
        port_o = PortW'(1 + 2 * d) + (plus[d] ? PortW'(0) : PortW'(1));
        if (torus_i && dateline_i) begin
          vc_mask_o = upper[d] ? (AllVcs & ~LowerVcs) : LowerVcs;
        end
      end
    end
  end

endmodule
