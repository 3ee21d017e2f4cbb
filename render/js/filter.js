/* filter.js: the rows filter every timeline shares: "rank 1" is exactly rank 1, "rank 0-7,12", a role's name, /regex/, words. */
window.rliCore.parseFilter = (function () {
  'use strict';

  var HELP = 'rank 3 (that rank only), rank 0-7,12 (ranges and lists), a role\u2019s name, /regex/ (over row ' +
    'labels and phase names), or any other word (part of a label, role or phase). Terms of different kinds all ' +
    'apply (actor rank 0-3); terms of one kind add up (actor critic).';

  /* The text as tokens: "quoted", /regex/flags, or runs without spaces; unclosed quotes and slashes are errors. */
  function tokens(text) {
    var out = [], i = 0, n = text.length;
    while (i < n) {
      var c = text[i];
      if (/\s/.test(c)) { i++; continue; }
      if (c === '"') {
        var value = '', j = i + 1;
        for (; j < n && text[j] !== '"'; j++) {
          if (text[j] === '\\' && j + 1 < n) j++;
          value += text[j];
        }
        if (j >= n) return { error: 'The quote opened at \u201c' + text.slice(i, i + 12) + '\u201d is not closed' };
        out.push({ kind: 'quoted', text: value });
        i = j + 1;
      } else if (c === '/') {
        var k = i + 1;
        for (; k < n && text[k] !== '/'; k++) if (text[k] === '\\') k++;
        if (k >= n) return { error: 'The pattern \u201c' + text.slice(i) + '\u201d has no closing /' };
        var flags = /^[a-z]*/.exec(text.slice(k + 1))[0];
        out.push({ kind: 'regex', text: text.slice(i + 1, k), flags: flags });
        i = k + 1 + flags.length;
      } else {
        var m = /^[^\s"]+/.exec(text.slice(i))[0];
        out.push({ kind: 'word', text: m });
        i += m.length;
      }
    }
    return { tokens: out };
  }

  /* "0-7,12" as [[0, 7], [12, 12]]; null when it is not a list of ranks and ranges. */
  function rankList(text) {
    if (!/^\d+(-\d+)?(,\d+(-\d+)?)*,?$/.test(text)) return null;
    return text.split(',').filter(Boolean).map(function (part) {
      var ends = part.split('-').map(Number);
      return ends.length === 2 ? [Math.min(ends[0], ends[1]), Math.max(ends[0], ends[1])] : [ends[0], ends[0]];
    });
  }

  /*
   * The filter for `text` over roles (the rows' role names): {roles, ranks, terms, error}, where a row
   * is kept when its role is one of roles (or roles is empty), its rank in one of ranks (likewise),
   * and it or one of its phases matches one of terms (likewise). An error says what is wrong, in words.
   */
  function parseFilter(text, roles) {
    var parsed = tokens(String(text || '')), filter = { roles: [], ranks: [], terms: [], error: null, help: HELP };
    if (parsed.error) { filter.error = parsed.error; return filter; }
    var known = new Map();
    (roles || []).forEach(function (role) { known.set(role.toLowerCase(), role); });
    var list = parsed.tokens;
    for (var i = 0; i < list.length; i++) {
      var t = list[i], lower = t.text.toLowerCase();
      if (t.kind === 'regex') {
        try {
          filter.terms.push({ regex: new RegExp(t.text, t.flags.indexOf('i') >= 0 ? t.flags : t.flags + 'i') });
        } catch (error) {
          filter.error = 'The pattern /' + t.text + '/ is not a regular expression: ' + error.message.replace(/^.*: /, '');
          return filter;
        }
      } else if (t.kind === 'word' && (lower === 'rank' || lower === 'ranks' || /^ranks?[=:]/.test(lower))) {
        /* "rank 1", "rank 0-7,12", "rank 1, 3", "rank=2" */
        var spec = lower.replace(/^ranks?[=:]?/, '');
        while ((!spec || /,$/.test(spec)) && i + 1 < list.length && list[i + 1].kind === 'word' && /^[\d,-]+$/.test(list[i + 1].text))
          spec += list[++i].text;
        var ranks = rankList(spec);
        if (!ranks && !spec && i + 1 < list.length && list[i + 1].kind === 'word') spec = list[i + 1].text;
        if (!ranks) {
          filter.error = spec ? '\u201crank ' + spec + '\u201d is not a rank, a range or a list: write rank 3, rank 0-7 or rank 0-7,12'
            : '\u201crank\u201d needs a number after it: rank 3, rank 0-7 or rank 0-7,12';
          return filter;
        }
        filter.ranks = filter.ranks.concat(ranks);
      } else if (t.kind === 'word' && rankList(t.text)) {
        filter.ranks = filter.ranks.concat(rankList(t.text));
      } else if (known.has(lower)) {
        filter.roles.push(known.get(lower));
      } else {
        filter.terms.push({ word: lower });
      }
    }
    filter.empty = !filter.roles.length && !filter.ranks.length && !filter.terms.length;
    return filter;
  }

  /* Whether a term matches text (a label, a role, a phase's name). */
  parseFilter.termMatches = function (term, text) {
    return term.regex ? term.regex.test(text) : String(text).toLowerCase().indexOf(term.word) >= 0;
  };

  /* Whether rank (a string or a number) is in one of the ranges. */
  parseFilter.rankIn = function (ranges, rank) {
    var r = Number(rank);
    for (var i = 0; i < ranges.length; i++) if (r >= ranges[i][0] && r <= ranges[i][1]) return true;
    return false;
  };

  parseFilter.HELP = HELP;
  return parseFilter;
})();
