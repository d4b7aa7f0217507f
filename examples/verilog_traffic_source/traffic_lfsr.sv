// The example's own hardware: a traffic source with a 16-bit Galois LFSR
// (x^16 + x^14 + x^13 + x^11 + 1). Each clock it offers a message when the
// low four state bits are zero (1 clock in 16), to the node in bits 9:4,
// long (4 flits) when bit 10 is set. The SystemC side (main.cpp) samples the
// outputs between clock edges and writes the message into its icnsim port.
module traffic_lfsr (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] seed_i,   // non-zero
  output logic        send_o,
  output logic [5:0]  dst_o,
  output logic        long_o
);

  logic [15:0] lfsr_d, lfsr_q;

  assign lfsr_d = lfsr_q[0] ? ((lfsr_q >> 1) ^ 16'hB400) : (lfsr_q >> 1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lfsr_q <= seed_i;
    end else begin
      lfsr_q <= lfsr_d;
    end
  end

  assign send_o = lfsr_q[3:0] == 4'h0;
  assign dst_o  = lfsr_q[9:4];
  assign long_o = lfsr_q[10];

endmodule
