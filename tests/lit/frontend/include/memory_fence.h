// Included by err_include_location_glsl.ir: the refused construct is on line 4.
void publish(uint i) {
    data[i] = i;
    memoryBarrierBuffer();
}
