// xo's position editor (issue 45), beside the page's main script, whose state (S), core
// (coreAsk) and helpers ($, curPos, isOctal, showError, startFrom, update) it uses: click the
// cells of a placement game's board to set up a position, each click the cell's next mark
// (empty, then each mark of the game's alphabet). The position is used only when the core's
// check says it can arise in a legal game; otherwise the core's reason is shown and the game
// is left as it was. (An octal game's heaps are typed in the position box.)
"use strict";
const EDIT = { cells: null, game: null };
function editDraw() {
  const grid = $("editgrid"), d = S.desc;
  grid.textContent = "";
  grid.style.gridTemplateColumns = "repeat(" + d.width + ", 2.2em)";
  EDIT.cells.forEach((mark, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "editcell";
    b.dataset.cell = i;
    b.textContent = mark === "." ? "" : mark;
    b.setAttribute("aria-label", "cell " + (i + 1) + ": " + (mark === "." ? "empty" : mark));
    b.addEventListener("click", () => {
      const marks = ["."].concat(S.desc.alphabet);
      EDIT.cells[i] = marks[(marks.indexOf(EDIT.cells[i]) + 1) % marks.length];
      editDraw();
      grid.querySelector('[data-cell="' + i + '"]').focus();
    });
    grid.append(b);
  });
}
function editOpen(empty) {
  EDIT.cells = (empty ? S.desc.empty : curPos()).split("");
  EDIT.game = S.desc.name;
  $("editor").hidden = false;
  editDraw();
}
function editClose() { EDIT.cells = null; EDIT.game = null; $("editor").hidden = true; }
async function editUse() {
  const game = S.desc.name, pos = EDIT.cells.join("");
  let r;
  try { r = await coreAsk({ game, position: pos, question: "check" }); } catch (err) {
    showError("That position cannot be set up: " + err.message);
    return;
  }
  if (S.desc.name !== game) return;
  if (!r.reachable) { showError("That position cannot be set up: " + (r.reason || "it cannot arise in a legal game") + "."); return; }
  editClose();
  startFrom(r.position || pos);
  S.notice = "";
  update();
}
// Called by the page's update(): the editor is offered for placement games, and closed when
// the game changes.
function editorUpdate() {
  if (!S.desc) return;
  $("edittool").hidden = isOctal();
  if (EDIT.cells && (EDIT.game !== S.desc.name || isOctal())) editClose();
}
$("edit").addEventListener("click", () => editOpen(false));
$("editempty").addEventListener("click", () => editOpen(true));
$("edituse").addEventListener("click", editUse);
$("editcancel").addEventListener("click", editClose);
editorUpdate();
