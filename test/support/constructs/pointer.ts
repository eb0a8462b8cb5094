import {type Construct, page} from './types.js';

/**
 * The pointer targets of issue 21 in their smallest form: a code editor's
 * 1x1 px textarea (its only handle in the accessibility tree), a read-only
 * select input under its own placeholder overlay (the wrapper's click opens
 * the widget), and a sortable list that reorders while the pointer moves over
 * it (the same rule as jQuery UI's sortable: moving down past an item's
 * middle puts the dragged item after it, moving up past it puts it before).
 * The oracle compares the clicks (the reference does them too); the drag is
 * checked by test/e2e/widgetInput.test.ts only, because the reference drops
 * the item back where it was (it moves to the target's new place to drop).
 */
export const pointerTargets: Construct = {
  name: 'pointer-targets',
  covers:
    '1x1 px textarea (code editor handle), select input under its own placeholder overlay, list that reorders during a drag',
  html: () =>
    page(
      'Pointer targets',
      `<style>
#steps { list-style: none; padding: 0; width: 200px; }
#steps li { height: 40px; border: 1px solid #999; box-sizing: border-box; user-select: none; }
</style>
<div style="position: relative; height: 20px">
  <textarea aria-label="Editor content" style="position: absolute; left: 10px; top: 10px; width: 1px; height: 1px; padding: 0; border: 0; resize: none"
    onmousedown="document.getElementById('editor-state').textContent = 'Editor pressed'"></textarea>
</div>
<p id="editor-state">Editor idle</p>
<div style="position: relative; width: 220px" onclick="document.getElementById('role-state').textContent = 'Role menu open'">
  <input aria-label="Default role" readonly style="width: 200px">
  <div style="position: absolute; inset: 0">Select a role</div>
</div>
<p id="role-state">Role menu closed</p>
<ul id="steps" aria-label="Steps"><li>One</li><li>Two</li><li>Three</li><li>Four</li></ul>
<script>
let dragged = null;
let lastY = 0;
const steps = document.getElementById('steps');
steps.addEventListener('mousedown', e => { dragged = e.target.closest('li'); lastY = e.clientY; e.preventDefault(); });
addEventListener('mousemove', e => {
  if (!dragged) return;
  const over = document.elementsFromPoint(e.clientX, e.clientY).find(el => el.localName === 'li' && el !== dragged);
  if (over) {
    const box = over.getBoundingClientRect();
    const middle = box.top + box.height / 2;
    if (e.clientY > lastY && e.clientY >= middle) over.after(dragged);
    if (e.clientY < lastY && e.clientY <= middle) over.before(dragged);
  }
  lastY = e.clientY;
});
addEventListener('mouseup', () => { if (dragged) window.dropped = (window.dropped || 0) + 1; dragged = null; });
</script>`,
    ),
  steps: [
    {title: 'click the 1x1 px textarea', tool: 'click', target: {role: 'textbox', name: 'Editor content'}},
    {
      title: 'click the select input under its placeholder',
      tool: 'click',
      target: {role: 'textbox', name: 'Default role'},
    },
  ],
};
