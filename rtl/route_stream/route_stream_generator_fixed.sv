// The memo's fixed-width circuit: a route_stream_generator whose height is tied
// to its width, as a NIC of one particular fat tree would be built. Used to
// count the hardware (scripts/rtl_area); the height decoder synthesises away.
module route_stream_generator_fixed #(
  parameter int unsigned Height = 8
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              load_i,
  input  logic              turn_fill_i,
  input  logic [Height-1:0] src_i,
  input  logic [Height-1:0] dst_i,
  output logic              valid_o,
  output logic              bit_o
);

  localparam int unsigned HeightW = $clog2(Height + 1);
  localparam logic [HeightW-1:0] FullHeight = HeightW'(Height);

  route_stream_generator #(.Height(Height)) u_gen (
    .clk_i,
    .rst_ni,
    .load_i,
    .height_i(FullHeight),
    .turn_fill_i,
    .src_i,
    .dst_i,
    .valid_o,
    .bit_o
  );

endmodule
