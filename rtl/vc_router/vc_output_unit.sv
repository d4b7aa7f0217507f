// The output unit of one port, its share of OutputUnits
// (routers/vc/output_unit.hpp): per downstream VC a credit counter
// (reset to Depth, the downstream buffer) and whether a packet holds it.
// A credit arriving in a cycle counts in that cycle's switch allocation
// (credit_ok_o), as VcRouter::tick restores credits before allocating.
// A VC is claimed by a VC allocation grant and released when its packet's tail
// wins the switch; the two never meet on one VC in one cycle.
module vc_output_unit #(
  parameter int unsigned Vcs   = 2,
  parameter int unsigned Depth = 4,
  localparam int unsigned VcW    = (Vcs > 1) ? $clog2(Vcs) : 1,
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // credit from downstream (sent credit latency earlier)
  input  logic                  credit_valid_i,
  input  logic [VcW-1:0]        credit_vc_i,
  // a flit granted the switch spends a credit of its VC
  input  logic                  consume_i,
  input  logic [VcW-1:0]        consume_vc_i,
  input  logic                  release_i,       // ... and frees the VC if it is the tail
  input  logic [Vcs-1:0]        claim_i,         // VC allocation grants, per VC
  output logic [Vcs-1:0]        credit_ok_o,     // a credit for VC v this cycle
  output logic [Vcs-1:0]        free_o,          // no packet holds VC v
  output logic [Vcs*CountW-1:0] credits_o        // observability
);

  for (genvar v = 0; v < Vcs; v++) begin : g_vc
    logic [CountW-1:0] credits_d, credits_q;
    logic              held_d, held_q;
    logic              restore, consume;

    assign restore = credit_valid_i && (credit_vc_i == VcW'(v));
    assign consume = consume_i && (consume_vc_i == VcW'(v));
    assign credit_ok_o[v] = (credits_q != '0) || restore;
    assign free_o[v]      = !held_q;
    assign credits_o[v*CountW +: CountW] = credits_q;

    always_comb begin
      credits_d = credits_q;
      if (restore && !consume) begin
        credits_d = credits_q + CountW'(1);
      end else if (consume && !restore) begin
        credits_d = credits_q - CountW'(1);
      end
      held_d = held_q;
      if (claim_i[v]) begin
        held_d = 1'b1;
      end else if (consume && release_i) begin
        held_d = 1'b0;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        credits_q <= CountW'(Depth);
        held_q    <= 1'b0;
      end else begin
        credits_q <= credits_d;
        held_q    <= held_d;
      end
    end
  end

endmodule
