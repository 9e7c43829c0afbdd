/* Budget parsing and byte formatting. */
#include "config.h"

#include <stdlib.h>

#include "t.h"
#include "units.h"

static void
ok(const char *s, long long bytes)
{
	struct rp_budget_spec b;
	char *cause = NULL;
	CHECK(rp_parse_budget(s, &b, &cause) == 0);
	CHECK(!b.is_percent);
	if (b.bytes != bytes)
		printf("#   '%s' gave %lld, want %lld\n", s,
		    (long long)b.bytes, bytes);
	CHECK(b.bytes == bytes);
	free(cause);
}

static void
bad(const char *s, const char *want)
{
	struct rp_budget_spec b;
	char *cause = NULL;
	CHECK(rp_parse_budget(s, &b, &cause) == -1);
	CHECK_STR(cause, want);
	free(cause);
}

int
main(void)
{
	struct rp_budget_spec b;
	char *cause = NULL, buf[32];

	t_case("budgets in bytes and units");
	ok("1", 1);
	ok("4096", 4096);
	ok("16G", 17179869184LL);
	ok("16g", 17179869184LL);
	ok("16GiB", 17179869184LL);
	ok("16GB", 16000000000LL);
	ok("1.5K", 1536);
	ok("2M", 2097152);
	ok("3MB", 3000000);
	ok("1T", 1099511627776LL);
	ok("2KB", 2000);
	ok("100B", 100);
	ok("160M ", 167772160);	/* blanks either side are the shell's */
	ok(" 160M", 167772160);
	ok("1e3", 1000);
	t_case("budgets as percentages");
	CHECK(rp_parse_budget("60%", &b, &cause) == 0 && b.is_percent &&
	    b.percent == 60.0);
	CHECK(rp_parse_budget("12.5%", &b, &cause) == 0 && b.percent == 12.5);
	t_case("malformed budgets are refused with their message");
	bad("", "budget '' is not a number of bytes or a percentage");
	bad("lots", "budget 'lots' is not a number of bytes or a percentage");
	bad("-5G", "budget '-5G' is not a number of bytes or a percentage");
	bad("16Q", "budget '16Q' has an unknown unit 'Q' (use B, K, M, G, T, KiB, MiB, GiB, TiB, KB, MB, GB, TB or %)");
	bad("0", "budget '0' must be at least 1 byte");
	bad("0.1", "budget '0.1' must be at least 1 byte");
	bad("1.5", "budget '1.5' is not a whole number of bytes");
	bad("2.5B", "budget '2.5B' is not a whole number of bytes");
	bad("0%", "budget '0%' must be a percentage above 0%");
	bad("99999999T", "budget '99999999T' is too large");
	bad("1e308%", "budget '1e308%' is too large (at most 1000000%)");
	bad("1e999", "budget '1e999' is not a number of bytes or a percentage");
	bad("nan", "budget 'nan' is not a number of bytes or a percentage");

	t_case("byte figures formatted for people");
	rp_format_bytes(0, buf, sizeof buf);
	CHECK_STR(buf, "0 B");
	rp_format_bytes(1023, buf, sizeof buf);
	CHECK_STR(buf, "1023 B");
	rp_format_bytes(1536, buf, sizeof buf);
	CHECK_STR(buf, "1.50 KiB");
	rp_format_bytes(17179869184LL, buf, sizeof buf);
	CHECK_STR(buf, "16.0 GiB");
	rp_format_bytes(213211140, buf, sizeof buf);
	CHECK_STR(buf, "203 MiB");
	/* three significant digits after rounding, into the next unit */
	rp_format_bytes(104857000, buf, sizeof buf);	/* 99.9995 MiB */
	CHECK_STR(buf, "100 MiB");
	rp_format_bytes(10485000, buf, sizeof buf);	/* 9.9993 MiB */
	CHECK_STR(buf, "10.0 MiB");
	rp_format_bytes(1048575, buf, sizeof buf);	/* 1023.999 KiB */
	CHECK_STR(buf, "1.00 MiB");
	rp_format_bytes(1073741000, buf, sizeof buf);
	CHECK_STR(buf, "1.00 GiB");
	rp_format_bytes(1047552, buf, sizeof buf);	/* 1023 KiB */
	CHECK_STR(buf, "1023 KiB");
	rp_format_bytes(-1048575, buf, sizeof buf);
	CHECK_STR(buf, "-1.00 MiB");
	return t_done("test_units");
}
