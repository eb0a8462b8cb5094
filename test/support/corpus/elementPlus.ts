import type {CorpusPage} from './types.js';

/**
 * Element Plus (Vue 3): its select draws the placeholder over its read-only
 * input (issue 21: the click on the combobox lands on the placeholder, which
 * is part of the same control), and renders the options in a popper
 * teleported to the end of the body, outside the control.
 */
export const elementPlus: CorpusPage = {
  id: 'element-plus',
  title: 'Element Plus form (Vue 3)',
  packages: [
    {name: 'element-plus', version: '2.14.8', license: 'MIT'},
    {name: 'vue', version: '3.5.45', license: 'MIT'},
  ],
  constructs: [
    'select whose placeholder is drawn over its input (same control)',
    'options in a popper teleported to the body (portal)',
    'form items labelled by <label for>',
    'Vue 3 reactive rendering',
  ],
  html: () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Element Plus</title>
<link rel="stylesheet" href="/node_modules/element-plus/dist/index.css">
<script src="/node_modules/vue/dist/vue.global.prod.js"></script>
<script src="/node_modules/element-plus/dist/index.full.min.js"></script></head><body>
<div id="app">
  <h1>Invite a member</h1>
  <el-form label-width="120px" style="width: 520px">
    <el-form-item label="Email"><el-input v-model="email" placeholder="name@example.com"></el-input></el-form-item>
    <el-form-item label="Role">
      <el-select v-model="role" placeholder="Select a role">
        <el-option v-for="r in roles" :key="r" :label="r" :value="r"></el-option>
      </el-select>
    </el-form-item>
    <el-form-item><el-button type="primary" @click="invite">Invite</el-button></el-form-item>
  </el-form>
  <p v-if="invited">Invited {{ invited.email }} as {{ invited.role }}</p>
</div>
<script>
window.app = Vue.createApp({
  data: () => ({email: '', role: '', roles: ['Admin', 'Editor', 'Viewer'], invited: null}),
  methods: { invite() { this.invited = {email: this.email, role: this.role}; } },
}).use(ElementPlus).mount('#app');
</script></body></html>`,
  ready: `!!document.querySelector('.el-select .el-select__placeholder')`,
  steps: [
    {label: 'fill the email', tool: 'fill', target: /textbox "Email"/, value: 'ada@example.com'},
    {
      label: 'open the role select (its placeholder is on top of the input)',
      tool: 'click',
      target: /combobox "Role"/,
      until: `[...document.querySelectorAll('.el-select-dropdown__item')].some(o => o.offsetParent) && !document.querySelector('[class*="-enter-active"], [class*="-leave-active"]')`,
    },
    {
      label: 'pick an option in the teleported popper',
      tool: 'click',
      target: /option "Editor"/,
      verbose: true,
      until: `app.role === 'Editor' && ![...document.querySelectorAll('.el-select-dropdown__item')].some(o => o.offsetParent) && !document.querySelector('[class*="-enter-active"], [class*="-leave-active"]')`,
    },
    {label: 'send the invitation', tool: 'click', target: /button "Invite"/, until: `!!app.invited`},
  ],
  task: {
    description: 'Invite ada@example.com as an Editor',
    check: `() => ({...app.invited})`,
    expect: {email: 'ada@example.com', role: 'Editor'},
  },
};
