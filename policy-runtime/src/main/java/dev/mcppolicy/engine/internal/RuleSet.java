package dev.mcppolicy.engine.internal;

import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.policy.Glob;
import dev.mcppolicy.policy.ToolRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules and hidden names of one level (the top level, or one server's section). Exact names are
 * a hash lookup; globs are tried longest literal prefix first (the parser rejects ties).
 */
final class RuleSet {
    private final Map<String, CompiledRule> exact;
    private final String[] globs;
    private final CompiledRule[] globRules;
    private final Set<String> hiddenNames;
    private final String[] hiddenGlobs;

    private RuleSet(Map<String, CompiledRule> exact, String[] globs, CompiledRule[] globRules,
                    Set<String> hiddenNames, String[] hiddenGlobs) {
        this.exact = exact;
        this.globs = globs;
        this.globRules = globRules;
        this.hiddenNames = hiddenNames;
        this.hiddenGlobs = hiddenGlobs;
    }

    static RuleSet of(Map<String, ToolRule> rules, List<String> hide, String at, CompiledPolicy.RuleContext context, Kind kind) {
        Map<String, CompiledRule> exact = new HashMap<>();
        List<Map.Entry<String, CompiledRule>> globEntries = new ArrayList<>();
        for (Map.Entry<String, ToolRule> entry : rules.entrySet()) {
            CompiledRule rule = CompiledRule.of(entry.getValue(), at + "/" + JsonPointers.escape(entry.getKey()), context, kind);
            if (Glob.isGlob(entry.getKey())) {
                globEntries.add(Map.entry(entry.getKey(), rule));
            } else {
                exact.put(entry.getKey(), rule);
            }
        }
        // longest literal prefix first, stable: an insertion sort, as no comparator lambda is spun on a cold JVM
        for (int i = 1; i < globEntries.size(); i++) {
            Map.Entry<String, CompiledRule> moving = globEntries.get(i);
            int prefix = Glob.literalPrefix(moving.getKey()).length();
            int j = i - 1;
            while (j >= 0 && Glob.literalPrefix(globEntries.get(j).getKey()).length() < prefix) {
                globEntries.set(j + 1, globEntries.get(j));
                j--;
            }
            globEntries.set(j + 1, moving);
        }
        String[] globs = new String[globEntries.size()];
        CompiledRule[] globRules = new CompiledRule[globEntries.size()];
        for (int i = 0; i < globs.length; i++) {
            globs[i] = globEntries.get(i).getKey();
            globRules[i] = globEntries.get(i).getValue();
        }

        Set<String> hiddenNames = new HashSet<>();
        List<String> hiddenGlobs = new ArrayList<>();
        for (String name : hide) {
            if (Glob.isGlob(name)) {
                hiddenGlobs.add(name);
            } else {
                hiddenNames.add(name);
            }
        }
        return new RuleSet(exact, globs, globRules, hiddenNames, hiddenGlobs.toArray(new String[0]));
    }

    boolean judgesResults() {
        for (CompiledRule rule : exact.values()) {
            if (rule.result() != null) {
                return true;
            }
        }
        for (CompiledRule rule : globRules) {
            if (rule.result() != null) {
                return true;
            }
        }
        return false;
    }

    CompiledRule find(String tool) {
        CompiledRule rule = exact.get(tool);
        if (rule != null) {
            return rule;
        }
        for (int i = 0; i < globs.length; i++) {
            if (Glob.matches(globs[i], tool)) {
                return globRules[i];
            }
        }
        return null;
    }

    boolean hides(String tool) {
        if (hiddenNames.contains(tool)) {
            return true;
        }
        for (String glob : hiddenGlobs) {
            if (Glob.matches(glob, tool)) {
                return true;
            }
        }
        return false;
    }
}
