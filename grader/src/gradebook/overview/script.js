"use strict";
for (const th of document.querySelectorAll("th[data-sort]")) {
  th.addEventListener("click", () => {
    const table = th.closest("table");
    const column = Array.from(th.parentNode.children).indexOf(th);
    const numeric = th.dataset.sort === "number";
    const descending = th.dataset.order !== "desc";
    th.dataset.order = descending ? "desc" : "asc";
    const key = (row) => row.children[column].dataset.key ?? row.children[column].textContent;
    const rows = Array.from(table.tBodies[0].rows);
    rows.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return descending ? -order : order;
    });
    table.tBodies[0].append(...rows);
  });
}
document.body.dataset.ready = "yes";
