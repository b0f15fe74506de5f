// Which painter draws the data layer (webview/timeline/gl/rendererChoice.ts): WebGL2 on a GPU,
// canvas2d on software GL or without WebGL2, and the setting forcing either.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseRenderer, fallbackChoice, rendererSetting } from '../../../webview/timeline/gl/rendererChoice';

const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';

test('auto: WebGL2 on a GPU, canvas2d on software GL or without WebGL2', () => {
  for (const gpu of [
    'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)',
    'Apple M2',
    'Mesa Intel(R) UHD Graphics 620 (KBL GT2)',
    'AMD Radeon RX 6800 (radeonsi, navi21, LLVM 15.0.7, DRM 3.49)',
  ])
    assert.equal(chooseRenderer('auto', () => gpu).kind, 'webgl2', gpu);
  for (const soft of [SWIFTSHADER, 'llvmpipe (LLVM 15.0.6, 256 bits)', 'Microsoft Basic Render Driver', 'softpipe'])
    assert.deepEqual(
      chooseRenderer('auto', () => soft),
      { kind: 'canvas2d', reason: `software GL (${soft})`, cpuRaster: true },
    );
  assert.deepEqual(
    chooseRenderer('auto', () => undefined),
    { kind: 'canvas2d', reason: 'no WebGL2', cpuRaster: true },
  );
});

test('the setting forces either painter; WebGL2 only where there is one', () => {
  assert.deepEqual(
    chooseRenderer('webgl2', () => SWIFTSHADER),
    { kind: 'webgl2', reason: `setting (${SWIFTSHADER})`, cpuRaster: true },
  );
  assert.deepEqual(
    chooseRenderer('webgl2', () => undefined),
    { kind: 'canvas2d', reason: 'no WebGL2', cpuRaster: true },
  );
  let probed = false;
  assert.deepEqual(
    chooseRenderer('canvas2d', () => ((probed = true), 'Apple M2')),
    { kind: 'canvas2d', reason: 'setting', cpuRaster: false },
  );
  assert.equal(probed, false, 'canvas2d makes no WebGL2 context');
  assert.deepEqual(['webgl2', 'canvas2d', 'auto', undefined, 'WebGL2', 'gpu'].map(rendererSetting), ['webgl2', 'canvas2d', 'auto', 'auto', 'auto', 'auto']);
});

test('canvas2d rasterises on the CPU where there is no GPU, not when chosen by setting or after a lost context', () => {
  assert.equal(chooseRenderer('auto', () => SWIFTSHADER).cpuRaster, true);
  assert.equal(chooseRenderer('auto', () => undefined).cpuRaster, true);
  assert.equal(chooseRenderer('webgl2', () => undefined).cpuRaster, true);
  assert.equal(chooseRenderer('auto', () => 'Apple M2').cpuRaster, false);
  assert.equal(chooseRenderer('canvas2d', () => SWIFTSHADER).cpuRaster, false);
  assert.equal(fallbackChoice('WebGL2 context lost').cpuRaster, false);
});

test('WebGL2 forced on software GL rasterises on the CPU; WebGL2 on a GPU does not', () => {
  assert.equal(chooseRenderer('webgl2', () => SWIFTSHADER).cpuRaster, true);
  assert.equal(chooseRenderer('webgl2', () => 'llvmpipe (LLVM 15.0.6, 256 bits)').cpuRaster, true);
  assert.equal(chooseRenderer('webgl2', () => 'Apple M2').cpuRaster, false);
  assert.equal(chooseRenderer('auto', () => 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)').cpuRaster, false);
  // the renderer's name decides, whatever words it has of the reasons'
  assert.equal(chooseRenderer('webgl2', () => 'Radeon (setting)').cpuRaster, false);
});
