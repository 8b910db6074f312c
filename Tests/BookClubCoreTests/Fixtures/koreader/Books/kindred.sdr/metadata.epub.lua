-- /mnt/onboard/Books/Kindred - Octavia E. Butler.epub, KOReader 2023.10
return {
    ["bookmarks"] = {
        [1] = {
            ["chapter"] = "The River",
            ["datetime"] = "2023-05-01 08:30:00",
            ["highlighted"] = true,
            ["notes"] = "I lost an arm on my last trip home.",
            ["page"] = "/body/DocFragment[3]/body/p[1]/text().0",
            ["pos0"] = "/body/DocFragment[3]/body/p[1]/text().0",
            ["pos1"] = "/body/DocFragment[3]/body/p[1]/text().36",
            ["text"] = "in The River",
        },
        [2] = {
            ["chapter"] = "The Fire",
            ["datetime"] = "2023-05-03 22:15:45",
            ["highlighted"] = true,
            ["notes"] = "The ease seemed to frighten me.",
            ["page"] = "/body/DocFragment[4]/body/p[20]/text().3",
            ["pos0"] = "/body/DocFragment[4]/body/p[20]/text().3",
            ["pos1"] = "/body/DocFragment[4]/body/p[20]/text().34",
            ["text"] = "Bring this to the meeting",
        },
        [3] = {
            ["datetime"] = "2023-05-04 07:00:00",
            ["notes"] = "Page 52",
            ["page"] = "/body/DocFragment[5]/body/p[1]/text().0",
        },
    },
    ["doc_path"] = "/mnt/onboard/Books/Kindred - Octavia E. Butler.epub",
    ["highlight"] = {
        [14] = {
            [1] = {
                ["chapter"] = "The River",
                ["datetime"] = "2023-05-01 08:30:00",
                ["drawer"] = "lighten",
                ["pos0"] = "/body/DocFragment[3]/body/p[1]/text().0",
                ["pos1"] = "/body/DocFragment[3]/body/p[1]/text().36",
                ["text"] = "I lost an arm on my last trip home.",
            },
        },
        [47] = {
            [1] = {
                ["chapter"] = "The Fire",
                ["datetime"] = "2023-05-03 22:15:45",
                ["drawer"] = "lighten",
                ["pos0"] = "/body/DocFragment[4]/body/p[20]/text().3",
                ["pos1"] = "/body/DocFragment[4]/body/p[20]/text().34",
                ["text"] = "The ease seemed to frighten me.",
            },
        },
    },
    ["partial_md5_checksum"] = "0123456789abcdef0123456789abcdef",
    ["percent_finished"] = 1,
    ["summary"] = {
        ["modified"] = "2023-05-10",
        ["status"] = "complete",
    },
}
