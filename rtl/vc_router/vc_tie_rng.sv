// The router's random generator for torus ties: xoshiro256** as icnsim's Rng
// (models/rng.hpp), one draw per requester, in requester order, all in one
// cycle. Rng::below(2) is the top bit of next() (Lemire's method never
// rejects for a bound of 2), so coin_o[i] is bit 63 of the i-th draw of the
// cycle; the C++ router goes + when it is 0.
//
// Requesters are input VCs in the order InputUnits::compute_routes visits them
// (port-major, VC-minor), so N = Ports * Vcs draws chain combinationally:
// the hardware cost of matching the C++ router's sequence exactly
// (docs/rtl_router.md).
//
// seed_i is the generator's state {s3, s2, s1, s0} as Rng(seed, router id)
// leaves it after seeding (SplitMix64, computed by icnsim). Departure from
// lowRISC style: the state register has no reset value of its own; until the
// first edge after reset (seeded_q low) the state is seed_i itself, so a draw
// in the first cycle already uses it (an asynchronous reset to a strap is not
// a constant reset).
module vc_tie_rng #(
  parameter int unsigned N = 10
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [255:0] seed_i,
  input  logic [N-1:0] req_i,
  output logic [N-1:0] coin_o
);

  logic [255:0] state_d, state_q;
  logic         seeded_q;

  always_comb begin
    logic [63:0] s0, s1, s2, s3, t, r;
    {s3, s2, s1, s0} = seeded_q ? state_q : seed_i;
    t      = '0;
    r      = '0;
    coin_o = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (req_i[i]) begin
        // result = rotl(s1 * 5, 7) * 9; only its top bit is used.
        r = s1 + (s1 << 2);
        r = {r[56:0], r[63:57]};          // rotl(r, 7)
        r = r + (r << 3);
        coin_o[i] = r[63];
        t  = s1 << 17;
        s2 = s2 ^ s0;
        s3 = s3 ^ s1;
        s1 = s1 ^ s2;
        s0 = s0 ^ s3;
        s2 = s2 ^ t;
        s3 = {s3[18:0], s3[63:19]};      // rotl(s3, 45)
      end
    end
    state_d = {s3, s2, s1, s0};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seeded_q <= 1'b0;
    end else begin
      seeded_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    state_q <= state_d;
  end

endmodule
