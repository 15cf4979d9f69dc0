package dev.mcppolicy.demo.client;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Renders JSON-like values on one line for the transcript, shortening long strings. */
final class Json {
    private Json() {
    }

    static String compact(Object value, int stringLimit) {
        StringBuilder text = new StringBuilder();
        write(value, stringLimit, text);
        return text.toString();
    }

    private static void write(Object value, int limit, StringBuilder text) {
        if (value instanceof Map) {
            text.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = ((Map<?, ?>) value).entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                string(String.valueOf(entry.getKey()), limit, text);
                text.append(':');
                write(entry.getValue(), limit, text);
                if (entries.hasNext()) {
                    text.append(',');
                }
            }
            text.append('}');
        } else if (value instanceof List) {
            text.append('[');
            List<?> list = (List<?>) value;
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    text.append(',');
                }
                write(list.get(i), limit, text);
            }
            text.append(']');
        } else if (value instanceof String) {
            string((String) value, limit, text);
        } else {
            text.append(value);
        }
    }

    private static void string(String value, int limit, StringBuilder text) {
        String shown = value.length() <= limit ? value
                : value.substring(0, limit) + "...(" + value.length() + " chars)";
        text.append('"');
        for (char c : shown.toCharArray()) {
            switch (c) {
                case '"': text.append("\\\""); break;
                case '\\': text.append("\\\\"); break;
                case '\n': text.append("\\n"); break;
                case '\t': text.append("\\t"); break;
                default: text.append(c);
            }
        }
        text.append('"');
    }
}
