#version 450

#extension GL_EXT_control_flow_attributes : enable

layout(push_constant)uniform parameter
{
    uint KX;
    uint KY;
    float scale;
    float max_bias;
    float m0;
    float m1;
    uint n_head_log2;
    uint nrows_x;
} p;





#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require






























struct block_q4_0
{
    float16_t d;
    uint8_t qs[16];
};
struct block_q4_0_packed16
{
    float16_t d;
    uint16_t qs[16 / 2];
};











struct block_q4_1
{
    float16_t d;
    float16_t m;
    uint8_t qs[16];
};

struct block_q4_1_packed16
{
    float16_t d;
    float16_t m;
    uint16_t qs[16 / 2];
};











struct block_q5_0
{
    float16_t d;
    uint16_t qh[2];
    uint8_t qs[16];
};

struct block_q5_0_packed16
{
    float16_t d;
    uint16_t qh[2];
    uint16_t qs[16 / 2];
};











struct block_q5_1
{
    float16_t d;
    float16_t m;
    uint qh;
    uint8_t qs[16];
};

struct block_q5_1_packed16
{
    float16_t d;
    float16_t m;
    uint qh;
    uint16_t qs[16 / 2];
};











struct block_q8_0
{
    float16_t d;
    int8_t qs[32];
};
struct block_q8_0_packed16
{
    float16_t d;
    uint16_t qs[32 / 2];
};











struct block_q2_K
{
    uint8_t scales[256 / 16];
    uint8_t qs[256 / 4];
    f16vec2 d;
};

struct block_q2_K_packed16
{
    uint16_t scales[256 / 16 / 2];
    uint16_t qs[256 / 4 / 2];
    f16vec2 d;
};

struct block_q2_K_packed32
{
    uint32_t scales[256 / 16 / 4];
    uint32_t qs[256 / 4 / 4];
    f16vec2 d;
};










struct block_q3_K
{
    uint8_t hmask[256 / 8];
    uint8_t qs[256 / 4];
    uint8_t scales[12];
    float16_t d;
};

struct block_q3_K_packed16
{
    uint16_t hmask[256 / 8 / 2];
    uint16_t qs[256 / 4 / 2];
    uint16_t scales[12 / 2];
    float16_t d;
};









struct block_q4_K
{
    f16vec2 d;
    uint8_t scales[3 * 256 / 64];
    uint8_t qs[256 / 2];
};

struct block_q4_K_packed16
{
    f16vec2 d;
    uint16_t scales[3 * 256 / 64 / 2];
    uint16_t qs[256 / 2 / 2];
};

struct block_q4_K_packed32
{
    f16vec2 d;
    uint32_t scales[3 * 256 / 64 / 4];
    uint32_t qs[256 / 2 / 4];
};

struct block_q4_K_packed128
{
    uvec4 q4k[9];
};










struct block_q5_K
{
    f16vec2 d;
    uint8_t scales[12];
    uint8_t qh[256 / 8];
    uint8_t qs[256 / 2];
};

struct block_q5_K_packed16
{
    f16vec2 d;
    uint16_t scales[12 / 2];
    uint16_t qh[256 / 8 / 2];
    uint16_t qs[256 / 2 / 2];
};

struct block_q5_K_packed128
{
    uvec4 q5k[11];
};









struct block_q6_K
{
    uint8_t ql[256 / 2];
    uint8_t qh[256 / 4];
    int8_t scales[256 / 16];
    float16_t d;
};

struct block_q6_K_packed16
{
    uint16_t ql[256 / 2 / 2];
    uint16_t qh[256 / 4 / 2];
    int8_t scales[256 / 16];
    float16_t d;
};












struct block_iq1_s {
    float16_t d;
    uint8_t qs[256 / 8];
    uint16_t qh[256 / 32];
};




struct block_iq1_m {
    uint8_t qs[256 / 8];
    uint8_t qh[256 / 16];
    uint16_t scales[256 / 64];
};







































































































































































struct block_iq2_xxs
{
    float16_t d;
    uint8_t qs[256 / 4];
};

struct block_iq2_xxs_packed16
{
    float16_t d;
    uint16_t qs[256 / 8];
};



























































































struct block_iq2_xs
{
    float16_t d;
    uint16_t qs[256 / 8];
    uint8_t scales[256 / 32];
};

struct block_iq2_xs_packed16
{
    float16_t d;
    uint16_t qs[256 / 8];
    uint16_t scales[256 / 64];
};



























































































































































struct block_iq2_s
{
    float16_t d;
    uint8_t qs[256 / 4];
    uint8_t qh[256 / 32];
    uint8_t scales[256 / 32];
};


























































































































































































































































































struct block_iq3_xxs
{
    float16_t d;
    uint8_t qs[256 / 4 + 256 / 8];
};

struct block_iq3_xxs_packed16
{
    float16_t d;
    uint16_t qs[256 / 8 + 256 / 16];
};



























































struct block_iq3_s
{
    float16_t d;
    uint8_t qs[256 / 4];
    uint8_t qh[256 / 32];
    uint8_t signs[256 / 8];
    uint8_t scales[256 / 64];
};

struct block_iq3_s_packed16
{
    float16_t d;
    uint16_t qs[256 / 4 / 2];
    uint16_t qh[256 / 32 / 2];
    uint16_t signs[256 / 8 / 2];
    uint16_t scales[256 / 64 / 2];
};



























































































struct block_iq4_xs
{
    float16_t d;
    uint16_t scales_h;
    uint8_t scales_l[256 / 64];
    uint8_t qs[256 / 2];
};










struct block_iq4_nl
{
    float16_t d;
    uint8_t qs[32 / 2];
};

struct block_iq4_nl_packed16
{
    float16_t d;
    uint16_t qs[32 / 2 / 2];
};





























layout(constant_id = 0)const uint BLOCK_SIZE = 32;
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1)in;

layout(binding = 0)readonly buffer X { float data_a[];};
layout(binding = 1)readonly buffer Y { float data_b[];};
layout(binding = 2)buffer D { float data_d[];};

shared float vals[BLOCK_SIZE];




void soft_max(uint num_iters){
    const uint tid = gl_LocalInvocationID . x;
    const uint rowx = gl_WorkGroupID . z * 262144 + gl_WorkGroupID . y * 512 + gl_WorkGroupID . x;
    const uint rowy =(p . KY > 0)?(rowx % p . KY): 0;

    if(rowx >= p . nrows_x){
        return;
    }

    float slope = 1.0f;


    if(p . max_bias > 0.0f){
        const uint h = rowx / p . KY;

        const float base = h < p . n_head_log2 ? p . m0 : p . m1;
        const uint exp = h < p . n_head_log2 ? h + 1 : 2 *(h - p . n_head_log2)+ 1;

        slope = pow(base, exp);
    }


             float max_val = uintBitsToFloat(0xFF800000);



    const uint DATA_CACHE_SIZE = 16;
             float data_cache[DATA_CACHE_SIZE];

    [[unroll]]for(uint col0 = 0, idx = 0;idx < num_iters;col0 += BLOCK_SIZE, ++ idx){
        const uint col = col0 + tid;

                 float a = float(0);
        if(col < p . KX){
            a = data_a[rowx * p . KX + col];
        }

                 float b = float(0);
        if(p . KY > 0 && col < p . KX){
            b = data_b[rowy * p . KX + col];
        }

                 float v = a * p . scale + slope * b;

        if(col < p . KX){
            max_val = max(max_val, v);
        }

        if(idx < DATA_CACHE_SIZE){
            data_cache[idx]= v;
        }
    }


    vals[tid]= max_val;
    barrier();
    [[unroll]]for(uint s = BLOCK_SIZE / 2;s > 0;s >>= 1){
        if(tid < s){
            vals[tid]= max(vals[tid], vals[tid + s]);
        }
        barrier();
    }

    max_val = vals[0];
    barrier();

             float sum = float(0.0f);


    [[unroll]]for(uint col0 = 0, idx = 0;idx < num_iters;col0 += BLOCK_SIZE, ++ idx){
        const uint col = col0 + tid;

        if(col >= p . KX){
            break;
        }



        const uint i = rowx * p . KX + col;
                 float val;
        if(idx < DATA_CACHE_SIZE){
            val = exp(data_cache[idx]- max_val);
        } else {
            val = exp(float(data_a[i])* p . scale +(p . KY > 0 ? slope * float(data_b[rowy * p . KX + col]): float(0.0f))- max_val);
        }
        sum += val;
        if(idx < DATA_CACHE_SIZE){
            data_cache[idx]= val;
        } else {
            data_d[i]= float(val);
        }
    }


    vals[tid]= sum;
    barrier();
    [[unroll]]for(uint s = BLOCK_SIZE / 2;s > 0;s >>= 1){
        if(tid < s){
            vals[tid]+= vals[tid + s];
        }
        barrier();
    }
    sum = vals[0];

             float rcpdivisor = 1.0 / sum;

    [[unroll]]for(uint col0 = 0, idx = 0;idx < num_iters;col0 += BLOCK_SIZE, ++ idx){
        const uint col = col0 + tid;

        if(col >= p . KX){
            continue;
        }

        if(idx < DATA_CACHE_SIZE){
            data_d[rowx * p . KX + col]= float(data_cache[idx]* rcpdivisor);
        } else {
            data_d[rowx * p . KX + col]*= float(rcpdivisor);
        }
    }
}

void main(){


    uint num_blocks =(p . KX + BLOCK_SIZE - 1)/ BLOCK_SIZE;
    if(num_blocks > 32){
        soft_max(num_blocks);
    } else if(num_blocks > 16){
        soft_max(32);
    } else if(num_blocks > 8){
        soft_max(16);
    } else if(num_blocks > 4){
        soft_max(8);
    } else if(num_blocks == 4){
        soft_max(4);
    } else if(num_blocks == 3){
        soft_max(3);
    } else if(num_blocks == 2){
        soft_max(2);
    } else if(num_blocks == 1){
        soft_max(1);
    }
}

