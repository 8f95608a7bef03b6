/*
 * format_time.c: RFC 3339 date, time, date-time (section 5.6) and duration (appendix A).
 * Strictly the RFC 3339 profile: four-digit years, two-digit fields, ASCII digits only.
 */
#include "sc_regex_format.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Reads exactly k ASCII digits at s; returns the value or -1. */
static int digits(const char *s, size_t k)
{
    int v = 0;
    for (size_t i = 0; i < k; i++) {
        if (!is_digit(s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static int is_leap_year(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap_year(y) ? 29 : days[m - 1];
}

int sc_fmt_date(const char *s, size_t n)
{
    if (n != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    int y = digits(s, 4), m = digits(s + 5, 2), d = digits(s + 8, 2);
    if (y < 0 || m < 1 || m > 12 || d < 1)
        return 0;
    return d <= days_in_month(y, m);
}

int sc_fmt_time(const char *s, size_t n)
{
    /* partial-time = HH ":" MM ":" SS [ "." 1*DIGIT ] ; time-offset = "Z" / ("+"/"-") HH ":" MM */
    if (n < 9 || s[2] != ':' || s[5] != ':')
        return 0;
    int h = digits(s, 2), m = digits(s + 3, 2), sec = digits(s + 6, 2);
    if (h < 0 || m < 0 || sec < 0 || h > 23 || m > 59 || sec > 60)
        return 0;
    size_t i = 8;
    if (i < n && s[i] == '.') {
        size_t start = ++i;
        while (i < n && is_digit(s[i]))
            i++;
        if (i == start)
            return 0;
    }
    if (i >= n)
        return 0; /* the offset is required */
    int offset_minutes = 0;
    if (s[i] == 'Z' || s[i] == 'z') {
        i++;
    } else if (s[i] == '+' || s[i] == '-') {
        if (n - i != 6 || s[i + 3] != ':')
            return 0;
        int oh = digits(s + i + 1, 2), om = digits(s + i + 4, 2);
        if (oh < 0 || om < 0 || oh > 23 || om > 59)
            return 0;
        offset_minutes = (oh * 60 + om) * (s[i] == '+' ? 1 : -1);
        i += 6;
    } else {
        return 0;
    }
    if (i != n)
        return 0;
    if (sec == 60) {
        /* A leap second is only ever inserted at 23:59:60 UTC. */
        int utc = ((h * 60 + m - offset_minutes) % 1440 + 1440) % 1440;
        if (utc != 23 * 60 + 59)
            return 0;
    }
    return 1;
}

int sc_fmt_date_time(const char *s, size_t n)
{
    if (n < 11 || (s[10] != 'T' && s[10] != 't'))
        return 0;
    return sc_fmt_date(s, 10) && sc_fmt_time(s + 11, n - 11);
}

/* Units of one duration part must be a contiguous run of this order, e.g. Y, YM, YMD,
 * M, MD, D (RFC 3339 appendix A: dur-year = 1*DIGIT "Y" [dur-month], ...). */
static int parse_units(const char *s, size_t n, size_t *i, const char *order, int *count)
{
    int last = -1;
    *count = 0;
    while (*i < n && s[*i] != 'T') {
        size_t start = *i;
        while (*i < n && is_digit(s[*i]))
            (*i)++;
        if (*i == start || *i >= n)
            return 0;
        int unit = -1;
        for (int k = 0; order[k]; k++)
            if (order[k] == s[*i])
                unit = k;
        if (unit < 0 || (last >= 0 && unit != last + 1))
            return 0;
        last = unit;
        (*i)++;
        (*count)++;
    }
    return 1;
}

int sc_fmt_duration(const char *s, size_t n)
{
    if (n < 2 || s[0] != 'P')
        return 0;
    size_t i = 1;
    /* dur-week stands alone. */
    if (s[n - 1] == 'W') {
        for (i = 1; i < n - 1; i++)
            if (!is_digit(s[i]))
                return 0;
        return n > 2;
    }
    int date_units, time_units = 0;
    if (!parse_units(s, n, &i, "YMD", &date_units))
        return 0;
    if (i < n) { /* at 'T' */
        i++;
        if (!parse_units(s, n, &i, "HMS", &time_units) || time_units == 0)
            return 0;
        if (i != n)
            return 0;
    }
    return date_units + time_units > 0;
}
