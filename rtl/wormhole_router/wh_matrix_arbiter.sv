// Matrix arbiter (least recently granted; Dally & Towles, "Principles and
// Practices of Interconnection Networks", 18.5): for every pair of
// requesters one bit says which of the two goes first. A requester wins when
// it goes before every other requester; when update_i commits the grant the
// winner goes after everybody. So the winner is always the requester granted
// least recently, and any requester waits for at most N - 1 grants (strong
// fairness), with no pointer to wrap.
//
// Only the N (N - 1) / 2 bits above the diagonal are stored: first_q's bit of
// pair (i, j), i < j, is 1 when i goes before j; j goes before i when it is 0. At
// reset the lower index goes first (as a fixed-priority arbiter would).
module wh_matrix_arbiter #(
  parameter int unsigned N = 5,
  localparam int unsigned IdxW  = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned PairW = (N > 1) ? N * (N - 1) / 2 : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            update_i,   // commit: the winner becomes the last granted
  output logic [N-1:0]    grant_o,    // one-hot (or 0 when nothing is requested)
  output logic            valid_o,
  output logic [IdxW-1:0] idx_o
);

  logic [PairW-1:0] first_d, first_q;
  // The whole order, first[i*N + j]: i goes before j (the diagonal is 0).
  logic [N*N-1:0]   first;

  // Pair (i, j), i < j, is bit i N - i (i + 1) / 2 + (j - i - 1) of the
  // triangle, row by row.
  for (genvar i = 0; i < N; i++) begin : g_row
    assign first[i*N + i] = 1'b0;
    for (genvar j = i + 1; j < N; j++) begin : g_col
      localparam int unsigned Pair = i * N - (i * (i + 1)) / 2 + (j - i - 1);
      assign first[i*N + j] = first_q[Pair];
      assign first[j*N + i] = !first_q[Pair];
      // The winner goes after every other requester from now on.
      always_comb begin
        first_d[Pair] = first_q[Pair];
        if (update_i && grant_o[i]) begin
          first_d[Pair] = 1'b0;
        end else if (update_i && grant_o[j]) begin
          first_d[Pair] = 1'b1;
        end
      end
    end
  end

  always_comb begin
    grant_o = '0;
    for (int unsigned i = 0; i < N; i++) begin
      grant_o[i] = req_i[i];
      for (int unsigned j = 0; j < N; j++) begin
        if (j != i && req_i[j] && !first[i*N + j]) begin
          grant_o[i] = 1'b0;
        end
      end
    end
  end

  assign valid_o = |req_i;

  always_comb begin
    idx_o = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (grant_o[i]) begin
        idx_o = IdxW'(i);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q <= '1;
    end else begin
      first_q <= first_d;
    end
  end

endmodule
