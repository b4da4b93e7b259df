document.getElementById('expand').addEventListener('click', function () {
  var all = document.querySelectorAll('details');
  var open = !Array.prototype.every.call(all, function (d) { return d.open; });
  all.forEach(function (d) { d.open = open; });
  this.textContent = open ? 'Collapse all' : 'Expand all';
});
function openTarget() {
  var id;
  try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
  var target = id && document.getElementById(id);
  if (target && target.tagName === 'DETAILS') { target.open = true; }
}
window.addEventListener('hashchange', openTarget);
openTarget();
document.body.setAttribute('data-ready', 'yes');
