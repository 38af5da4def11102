//! The Vulkan program of the harness: creates one compute pipeline from a SPIR-V module,
//! as an application would, so that the driver it runs on (anv on a stubbed GPU)
//! compiles the shader and prints what `INTEL_DEBUG=cs` asks for.
//!
//! Descriptor-set layouts and the push-constant range are reflected from the module
//! (`rspirv-reflect`); every feature the device reports is enabled (format-less storage
//! images, int64, 8- and 16-bit storage, scalar layouts, ...), so that the driver never
//! refuses a shader for a feature left off; specialization constants keep their
//! defaults (no `VkSpecializationInfo`).

use ash::vk;
use rspirv_reflect::{BindingCount, Reflection};
use std::ffi::CString;

/// The descriptor count given to a runtime-sized descriptor array (`image2D x[]`).
const UNBOUNDED_COUNT: u32 = 8;

/// Creates a compute pipeline for `entry` of the SPIR-V module `spirv` on the first
/// physical device, then destroys everything. The error says which step failed.
pub fn create_compute_pipeline(spirv: &[u8], entry: &str) -> Result<(), String> {
    // rspirv-reflect refuses two variables at one binding (suyu's aliased views of a
    // buffer), which Vulkan allows: it reflects a copy whose aliases have bindings of
    // their own, each an extra (unused) layout binding of the same type.
    let reflected = unaliased(spirv);
    let reflection = Reflection::new_from_spirv(&reflected)
        .map_err(|e| format!("cannot reflect the module: {e:?}"))?;
    let sets = reflection
        .get_descriptor_sets()
        .map_err(|e| format!("cannot reflect the descriptor sets: {e:?}"))?;
    let push = reflection
        .get_push_constant_range()
        .map_err(|e| format!("cannot reflect the push constants: {e:?}"))?;
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // SAFETY: the loader is the system's libvulkan; every handle created below is
    // destroyed before return, children before parents, and every pointer handed to
    // Vulkan points into values that live until the call returns.
    unsafe {
        let entry_fn = ash::Entry::load().map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let instance = entry_fn
            .create_instance(
                &vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
            .map_err(|e| format!("vkCreateInstance: {e}"))?;
        let result = with_instance(&instance, &sets, push, &words, entry);
        instance.destroy_instance(None);
        result
    }
}

/// The part of [`create_compute_pipeline`] that needs the instance.
///
/// # Safety
///
/// `instance` must be a live instance.
unsafe fn with_instance(
    instance: &ash::Instance,
    sets: &std::collections::BTreeMap<
        u32,
        std::collections::BTreeMap<u32, rspirv_reflect::DescriptorInfo>,
    >,
    push: Option<rspirv_reflect::PushConstantInfo>,
    words: &[u32],
    entry: &str,
) -> Result<(), String> {
    // SAFETY: the caller's instance is live; see create_compute_pipeline.
    unsafe {
        let physical = *instance
            .enumerate_physical_devices()
            .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?
            .first()
            .ok_or("no Vulkan device")?;
        let queue_family = instance
            .get_physical_device_queue_family_properties(physical)
            .iter()
            .position(|q| q.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("no compute queue")? as u32;
        // Every feature the device reports, enabled as reported.
        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12)
            .push_next(&mut f13);
        instance.get_physical_device_features2(physical, &mut features);
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let device = instance
            .create_device(
                physical,
                &vk::DeviceCreateInfo::default()
                    .queue_create_infos(&queues)
                    .push_next(&mut features),
                None,
            )
            .map_err(|e| format!("vkCreateDevice: {e}"))?;
        let result = with_device(&device, sets, push, words, entry);
        device.destroy_device(None);
        result
    }
}

/// Layouts, module and pipeline on `device`, destroyed before return.
///
/// # Safety
///
/// `device` must be a live device.
unsafe fn with_device(
    device: &ash::Device,
    sets: &std::collections::BTreeMap<
        u32,
        std::collections::BTreeMap<u32, rspirv_reflect::DescriptorInfo>,
    >,
    push: Option<rspirv_reflect::PushConstantInfo>,
    words: &[u32],
    entry: &str,
) -> Result<(), String> {
    // SAFETY: the caller's device is live; see create_compute_pipeline.
    unsafe {
        let set_count = sets.keys().max().map_or(0, |m| m + 1);
        let mut layouts = Vec::new();
        for set in 0..set_count {
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = sets
                .get(&set)
                .into_iter()
                .flatten()
                .map(|(binding, info)| {
                    let count = match info.binding_count {
                        BindingCount::One => 1,
                        BindingCount::StaticSized(n) => n as u32,
                        BindingCount::Unbounded => UNBOUNDED_COUNT,
                    };
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(*binding)
                        .descriptor_type(vk::DescriptorType::from_raw(info.ty.0 as i32))
                        .descriptor_count(count)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            match device.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            ) {
                Ok(l) => layouts.push(l),
                Err(e) => {
                    destroy_layouts(device, &layouts);
                    return Err(format!("vkCreateDescriptorSetLayout (set {set}): {e}"));
                }
            }
        }
        let ranges: Vec<vk::PushConstantRange> = push
            .iter()
            .map(|p| {
                vk::PushConstantRange::default()
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
                    .offset(0)
                    .size(p.offset + p.size)
            })
            .collect();
        let pipeline_layout = match device.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default()
                .set_layouts(&layouts)
                .push_constant_ranges(&ranges),
            None,
        ) {
            Ok(l) => l,
            Err(e) => {
                destroy_layouts(device, &layouts);
                return Err(format!("vkCreatePipelineLayout: {e}"));
            }
        };
        let result = match device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
        {
            Err(e) => Err(format!("vkCreateShaderModule: {e}")),
            Ok(module) => {
                let name = CString::new(entry).map_err(|_| "entry point name has a NUL")?;
                let stage = vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::COMPUTE)
                    .module(module)
                    .name(&name);
                let info = vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(pipeline_layout);
                let r = match device.create_compute_pipelines(
                    vk::PipelineCache::null(),
                    std::slice::from_ref(&info),
                    None,
                ) {
                    Ok(p) => {
                        p.iter().for_each(|p| device.destroy_pipeline(*p, None));
                        Ok(())
                    }
                    Err((p, e)) => {
                        p.iter()
                            .filter(|p| **p != vk::Pipeline::null())
                            .for_each(|p| device.destroy_pipeline(*p, None));
                        Err(format!("vkCreateComputePipelines: {e}"))
                    }
                };
                device.destroy_shader_module(module, None);
                r
            }
        };
        device.destroy_pipeline_layout(pipeline_layout, None);
        destroy_layouts(device, &layouts);
        result
    }
}

/// # Safety
///
/// `device` must be live and own every layout.
unsafe fn destroy_layouts(device: &ash::Device, layouts: &[vk::DescriptorSetLayout]) {
    for l in layouts {
        // SAFETY: see the function's contract.
        unsafe { device.destroy_descriptor_set_layout(*l, None) };
    }
}

/// `spirv` with every variable that shares its descriptor set and binding with an
/// earlier one moved to a binding of its own past the set's last, and without its
/// embedded source (`OpSource`'s text and `OpSourceContinued`: glslang cuts long
/// sources at byte counts, through UTF-8 characters, which the reflection's strict
/// string decoding refuses); the module's words otherwise unchanged.
fn unaliased(spirv: &[u8]) -> Vec<u8> {
    const SOURCE_CONTINUED: u32 = 2;
    const SOURCE: u32 = 3;
    const DECORATE: u32 = 71;
    const DESCRIPTOR_SET: u32 = 34;
    const BINDING: u32 = 33;
    let mut words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // (target, word index of the literal) of each Binding; each target's set.
    let mut bindings = Vec::new();
    let mut sets = std::collections::HashMap::new();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 || i + count > words.len() {
            break;
        }
        if words[i] & 0xffff == DECORATE && count >= 4 {
            match words[i + 2] {
                BINDING => bindings.push((words[i + 1], i + 3)),
                DESCRIPTOR_SET => {
                    sets.insert(words[i + 1], words[i + 3]);
                }
                _ => {}
            }
        }
        i += count;
    }
    let mut seen = std::collections::HashSet::new();
    let mut next = std::collections::HashMap::new();
    for &(target, at) in &bindings {
        let set = sets.get(&target).copied().unwrap_or(0);
        let last = bindings
            .iter()
            .filter(|(t, _)| sets.get(t).copied().unwrap_or(0) == set)
            .map(|&(_, a)| words[a])
            .max()
            .unwrap_or(0);
        if !seen.insert((set, words[at])) {
            let n = next.entry(set).or_insert(last);
            *n += 1;
            words[at] = *n;
        }
    }
    let mut out: Vec<u32> = words.iter().take(5).copied().collect();
    let mut i = 5;
    while i < words.len() {
        let count = ((words[i] >> 16) as usize).max(1);
        let end = (i + count).min(words.len());
        match words[i] & 0xffff {
            SOURCE_CONTINUED => {}
            // OpSource: language, version, then an optional file and text; keep the
            // first three operands.
            SOURCE => {
                let keep = (end - i).min(4);
                out.push((keep as u32) << 16 | SOURCE);
                out.extend_from_slice(&words[i + 1..i + keep]);
            }
            _ => out.extend_from_slice(&words[i..end]),
        }
        i = end;
    }
    out.iter().flat_map(|w| w.to_le_bytes()).collect()
}
