// One input port of the wormhole router: its buffer (wh_fifo), its route
// computation (wh_route_compute) and where the packet at the front stands:
//   idle    no packet; a head at the front is routed in this cycle and the
//           result registered (the route computation stage);
//   routed  the head asks its output for the switch (wh_output_port
//           arbitrates among the heads routed to a free output);
//   active  the packet holds its output: each flit at the front crosses
//           when the output has a credit, no arbitration.
// A flit crossing (send_i) leaves the buffer in this cycle, and its credit
// goes upstream in this cycle (the top drives in_credit_valid_o from send_i).
// The tail crossing returns the port to idle.
//
// Flits are {payload, dst, src, tail, head} (head in bit 0).
module wh_input_port #(
  parameter int unsigned Dims     = 2,
  parameter int unsigned Depth    = 4,
  parameter int unsigned PayloadW = 32,
  parameter int unsigned CoordW   = 8,
  localparam int unsigned AddrW   = Dims * CoordW,
  localparam int unsigned Ports   = 2 * Dims + 1,
  localparam int unsigned PortW   = $clog2(Ports),
  localparam int unsigned FlitW   = PayloadW + 2 * AddrW + 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // straps for the route computation
  input  logic [AddrW-1:0] coord_i,
  input  logic [AddrW-1:0] last_coord_i,
  input  logic             torus_i,
  // the flit arriving in this cycle
  input  logic             in_valid_i,
  input  logic [FlitW-1:0] in_flit_i,
  // toward the outputs
  output logic             head_req_o,   // routed: the head asks output port_o
  output logic             flit_ready_o, // active, a flit at the front for output port_o
  output logic [PortW-1:0] port_o,
  output logic [FlitW-1:0] flit_o,       // the front flit
  input  logic             send_i        // the front flit crosses the switch now
);

  // Departure: localparams, not a typedef enum (Yosys 0.23, scripts/rtl_area).
  localparam logic [1:0] StIdle   = 2'd0;
  localparam logic [1:0] StRouted = 2'd1;
  localparam logic [1:0] StActive = 2'd2;

  logic [1:0]       state_d, state_q;
  logic [PortW-1:0] port_d, port_q;
  logic             front_valid;
  logic [FlitW-1:0] front;
  logic [PortW-1:0] rc_port;
  logic             front_head, front_tail;

  wh_fifo #(
    .Width(FlitW),
    .Depth(Depth)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .push_i  (in_valid_i),
    .data_i  (in_flit_i),
    .pop_i   (send_i),
    .valid_o (front_valid),
    .front_o (front)
  );

  wh_route_compute #(
    .Dims  (Dims),
    .CoordW(CoordW)
  ) u_route (
    .coord_i      (coord_i),
    .last_coord_i (last_coord_i),
    .torus_i      (torus_i),
    .dst_i        (front[2 + AddrW +: AddrW]),
    .port_o       (rc_port)
  );

  assign front_head = front[0];
  assign front_tail = front[1];

  assign head_req_o   = (state_q == StRouted);
  assign flit_ready_o = (state_q == StActive) && front_valid;
  assign port_o       = port_q;
  assign flit_o       = front;

  always_comb begin
    state_d = state_q;
    port_d  = port_q;
    unique case (state_q)
      StIdle: begin
        // A body flit at the front of an idle port breaks the protocol
        // (flits of a packet arrive head first); it is never routed.
        if (front_valid && front_head) begin
          state_d = StRouted;
          port_d  = rc_port;
        end
      end
      StRouted: begin
        if (send_i) begin
          state_d = front_tail ? StIdle : StActive;
        end
      end
      StActive: begin
        if (send_i && front_tail) begin
          state_d = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      port_q  <= '0;
    end else begin
      state_q <= state_d;
      port_q  <= port_d;
    end
  end

endmodule
