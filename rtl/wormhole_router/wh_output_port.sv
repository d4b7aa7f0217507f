// One output port of the wormhole router: its column of the crossbar and
// the register behind it, the credits of the downstream buffer, and who
// holds it.
// - Free: the heads routed here (head_req_i) compete in a matrix arbiter
//   (wh_matrix_arbiter, least recently granted), if a credit is there. The
//   winner's head crosses now and, unless it is also its tail, its input
//   holds the output (held_q, owner_q) until its tail crosses.
// - Held: the owner's flits cross, one a cycle, whenever one is at the
//   front of its buffer (flit_ready_i) and a credit is there; no arbitration.
// A credit arriving in a cycle can be spent in that cycle. A flit crossing in
// cycle t is registered and driven on the port in t + 1 (switch traversal).
module wh_output_port #(
  parameter int unsigned Ports = 5,
  parameter int unsigned Depth = 4,
  parameter int unsigned FlitW = 66,
  localparam int unsigned PortW  = $clog2(Ports),
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // the inputs' requests for this output and their front flits
  input  logic [Ports-1:0]       head_req_i,
  input  logic [Ports-1:0]       flit_ready_i,
  input  logic [Ports*FlitW-1:0] flit_i,
  // a credit from downstream (sent a credit latency earlier)
  input  logic                   credit_valid_i,
  // the flit crossing to this output now, and from which input
  output logic                   send_o,
  output logic [PortW-1:0]       send_in_o,
  // the port
  output logic                   out_valid_o,
  output logic [FlitW-1:0]       out_flit_o
);

  logic             held_d, held_q;
  logic [PortW-1:0] owner_d, owner_q;
  logic [CountW-1:0] credits_d, credits_q;
  logic             credit_ok;
  logic [Ports-1:0] arb_req, arb_grant;
  logic             arb_valid;
  logic [PortW-1:0] arb_idx;
  logic             owner_ready;
  logic [FlitW-1:0] flit;
  logic             valid_q;
  logic [FlitW-1:0] flit_d, flit_q;

  assign credit_ok = (credits_q != '0) || credit_valid_i;
  assign arb_req   = (held_q || !credit_ok) ? '0 : head_req_i;

  wh_matrix_arbiter #(.N(Ports)) u_arb (
    .clk_i,
    .rst_ni,
    .req_i    (arb_req),
    .update_i (arb_valid),
    .grant_o  (arb_grant),
    .valid_o  (arb_valid),
    .idx_o    (arb_idx)
  );

  // The grant vector is one-hot; the index alone drives the crossbar.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [Ports-1:0] unused_grant;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_grant = arb_grant;

  always_comb begin
    owner_ready = 1'b0;
    for (int unsigned p = 0; p < Ports; p++) begin
      if (owner_q == PortW'(p)) begin
        owner_ready = flit_ready_i[p];
      end
    end
  end

  assign send_o    = held_q ? (owner_ready && credit_ok) : arb_valid;
  assign send_in_o = held_q ? owner_q : arb_idx;

  // The crossbar column: the crossing input's front flit.
  always_comb begin
    flit = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      if (send_in_o == PortW'(p)) begin
        flit = flit_i[p*FlitW +: FlitW];
      end
    end
  end

  always_comb begin
    held_d    = held_q;
    owner_d   = owner_q;
    credits_d = credits_q;
    flit_d    = flit_q;
    if (send_o) begin
      // flit[1]: the tail bit; a head that is not a tail takes the output.
      held_d  = !flit[1];
      owner_d = send_in_o;
      flit_d  = flit;
    end
    unique case ({credit_valid_i, send_o})
      2'b10:   credits_d = credits_q + CountW'(1);
      2'b01:   credits_d = credits_q - CountW'(1);
      default: credits_d = credits_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q    <= 1'b0;
      owner_q   <= '0;
      credits_q <= CountW'(Depth);
      valid_q   <= 1'b0;
      flit_q    <= '0;
    end else begin
      held_q    <= held_d;
      owner_q   <= owner_d;
      credits_q <= credits_d;
      valid_q   <= send_o;
      flit_q    <= flit_d;
    end
  end

  assign out_valid_o = valid_q;
  assign out_flit_o  = flit_q;

endmodule
