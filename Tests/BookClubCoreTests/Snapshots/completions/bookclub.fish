# Prints the subcommand being typed and how many of its arguments precede the cursor.
function __bookclub_state
    set -l cmd 'bookclub'
    set -l n 0
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch "$cmd:$word"
            case 'bookclub:add'
                set cmd 'bookclub/add'; set n 0
            case 'bookclub:list'
                set cmd 'bookclub/list'; set n 0
            case 'bookclub:ls'
                set cmd 'bookclub/list'; set n 0
            case 'bookclub:show'
                set cmd 'bookclub/show'; set n 0
            case 'bookclub:progress'
                set cmd 'bookclub/progress'; set n 0
            case 'bookclub:highlight'
                set cmd 'bookclub/highlight'; set n 0
            case 'bookclub:finish'
                set cmd 'bookclub/finish'; set n 0
            case 'bookclub:unfinish'
                set cmd 'bookclub/unfinish'; set n 0
            case 'bookclub:abandon'
                set cmd 'bookclub/abandon'; set n 0
            case 'bookclub:reread'
                set cmd 'bookclub/reread'; set n 0
            case 'bookclub:edit'
                set cmd 'bookclub/edit'; set n 0
            case 'bookclub:remove'
                set cmd 'bookclub/remove'; set n 0
            case 'bookclub:rm'
                set cmd 'bookclub/remove'; set n 0
            case 'bookclub:notes'
                set cmd 'bookclub/notes'; set n 0
            case 'bookclub:select'
                set cmd 'bookclub/select'; set n 0
            case 'bookclub:undo'
                set cmd 'bookclub/undo'; set n 0
            case 'bookclub:history'
                set cmd 'bookclub/history'; set n 0
            case 'bookclub:doctor'
                set cmd 'bookclub/doctor'; set n 0
            case 'bookclub:agenda'
                set cmd 'bookclub/agenda'; set n 0
            case 'bookclub:export'
                set cmd 'bookclub/export'; set n 0
            case 'bookclub:log'
                set cmd 'bookclub/log'; set n 0
            case 'bookclub:import'
                set cmd 'bookclub/import'; set n 0
            case 'bookclub:stats'
                set cmd 'bookclub/stats'; set n 0
            case 'bookclub:lookup'
                set cmd 'bookclub/lookup'; set n 0
            case 'bookclub:cover'
                set cmd 'bookclub/cover'; set n 0
            case 'bookclub:covers'
                set cmd 'bookclub/covers'; set n 0
            case 'bookclub:sync'
                set cmd 'bookclub/sync'; set n 0
            case 'bookclub:completions'
                set cmd 'bookclub/completions'; set n 0
            case 'bookclub:manual'
                set cmd 'bookclub/manual'; set n 0
            case 'bookclub:club'
                set cmd 'bookclub/club'; set n 0
            case 'bookclub:settings'
                set cmd 'bookclub/settings'; set n 0
            case 'bookclub/club:add'
                set cmd 'bookclub/club/add'; set n 0
            case 'bookclub/club:list'
                set cmd 'bookclub/club/list'; set n 0
            case 'bookclub/club:show'
                set cmd 'bookclub/club/show'; set n 0
            case 'bookclub/club:rename'
                set cmd 'bookclub/club/rename'; set n 0
            case 'bookclub/club:remove'
                set cmd 'bookclub/club/remove'; set n 0
            case 'bookclub/club:rm'
                set cmd 'bookclub/club/remove'; set n 0
            case 'bookclub/club:meeting'
                set cmd 'bookclub/club/meeting'; set n 0
            case 'bookclub/club:meetings'
                set cmd 'bookclub/club/meetings'; set n 0
            case 'bookclub/club:cancel'
                set cmd 'bookclub/club/cancel'; set n 0
            case 'bookclub/club:share'
                set cmd 'bookclub/club/share'; set n 0
            case 'bookclub/club:join'
                set cmd 'bookclub/club/join'; set n 0
            case 'bookclub/club:members'
                set cmd 'bookclub/club/members'; set n 0
            case 'bookclub/club:admit'
                set cmd 'bookclub/club/admit'; set n 0
            case 'bookclub/club:host'
                set cmd 'bookclub/club/host'; set n 0
            case 'bookclub/club:expel'
                set cmd 'bookclub/club/expel'; set n 0
            case 'bookclub/club:leave'
                set cmd 'bookclub/club/leave'; set n 0
            case 'bookclub/club:link'
                set cmd 'bookclub/club/link'; set n 0
            case 'bookclub/club:post'
                set cmd 'bookclub/club/post'; set n 0
            case 'bookclub/club:feed'
                set cmd 'bookclub/club/feed'; set n 0
            case 'bookclub/club:rsvp'
                set cmd 'bookclub/club/rsvp'; set n 0
            case 'bookclub/club:poll'
                set cmd 'bookclub/club/poll'; set n 0
            case 'bookclub/club:vote'
                set cmd 'bookclub/club/vote'; set n 0
            case 'bookclub/club:polls'
                set cmd 'bookclub/club/polls'; set n 0
            case 'bookclub/club:close'
                set cmd 'bookclub/club/close'; set n 0
            case 'bookclub/club:policy'
                set cmd 'bookclub/club/policy'; set n 0
            case 'bookclub/club:sync'
                set cmd 'bookclub/club/sync'; set n 0
            case 'bookclub/settings:list'
                set cmd 'bookclub/settings/list'; set n 0
            case 'bookclub/settings:get'
                set cmd 'bookclub/settings/get'; set n 0
            case 'bookclub/settings:set'
                set cmd 'bookclub/settings/set'; set n 0
            case 'bookclub/settings:reset'
                set cmd 'bookclub/settings/reset'; set n 0
            case 'bookclub:--store' 'bookclub:--settings' 'bookclub:--color'
                set skip 1
            case 'bookclub/add:--author' 'bookclub/add:-a' 'bookclub/add:--pages' 'bookclub/add:-p' 'bookclub/add:--isbn' 'bookclub/add:--cover' 'bookclub/add:--tag' 'bookclub/add:-t' 'bookclub/add:--format' 'bookclub/add:--length' 'bookclub/add:--store' 'bookclub/add:--settings' 'bookclub/add:--color'
                set skip 1
            case 'bookclub/list:--tag' 'bookclub/list:-t' 'bookclub/list:--store' 'bookclub/list:--settings' 'bookclub/list:--color'
                set skip 1
            case 'bookclub/show:--store' 'bookclub/show:--settings' 'bookclub/show:--color'
                set skip 1
            case 'bookclub/progress:--note' 'bookclub/progress:--date' 'bookclub/progress:--store' 'bookclub/progress:--settings' 'bookclub/progress:--color'
                set skip 1
            case 'bookclub/highlight:--page' 'bookclub/highlight:-p' 'bookclub/highlight:--note' 'bookclub/highlight:--date' 'bookclub/highlight:--club' 'bookclub/highlight:--store' 'bookclub/highlight:--settings' 'bookclub/highlight:--color'
                set skip 1
            case 'bookclub/finish:--date' 'bookclub/finish:--note' 'bookclub/finish:--rating' 'bookclub/finish:--review' 'bookclub/finish:--store' 'bookclub/finish:--settings' 'bookclub/finish:--color'
                set skip 1
            case 'bookclub/unfinish:--store' 'bookclub/unfinish:--settings' 'bookclub/unfinish:--color'
                set skip 1
            case 'bookclub/abandon:--date' 'bookclub/abandon:--note' 'bookclub/abandon:--store' 'bookclub/abandon:--settings' 'bookclub/abandon:--color'
                set skip 1
            case 'bookclub/reread:--format' 'bookclub/reread:--length' 'bookclub/reread:--store' 'bookclub/reread:--settings' 'bookclub/reread:--color'
                set skip 1
            case 'bookclub/edit:--title' 'bookclub/edit:--author' 'bookclub/edit:-a' 'bookclub/edit:--pages' 'bookclub/edit:-p' 'bookclub/edit:--isbn' 'bookclub/edit:--cover' 'bookclub/edit:--format' 'bookclub/edit:--length' 'bookclub/edit:--add-tag' 'bookclub/edit:--remove-tag' 'bookclub/edit:--rating' 'bookclub/edit:--review' 'bookclub/edit:--store' 'bookclub/edit:--settings' 'bookclub/edit:--color'
                set skip 1
            case 'bookclub/remove:--store' 'bookclub/remove:--settings' 'bookclub/remove:--color'
                set skip 1
            case 'bookclub/notes:--club' 'bookclub/notes:--meeting' 'bookclub/notes:--output' 'bookclub/notes:-o' 'bookclub/notes:--store' 'bookclub/notes:--settings' 'bookclub/notes:--color'
                set skip 1
            case 'bookclub/select:--club' 'bookclub/select:--store' 'bookclub/select:--settings' 'bookclub/select:--color'
                set skip 1
            case 'bookclub/undo:--store' 'bookclub/undo:--settings' 'bookclub/undo:--color'
                set skip 1
            case 'bookclub/history:--store' 'bookclub/history:--settings' 'bookclub/history:--color'
                set skip 1
            case 'bookclub/doctor:--store' 'bookclub/doctor:--settings' 'bookclub/doctor:--color'
                set skip 1
            case 'bookclub/agenda:--days' 'bookclub/agenda:--club' 'bookclub/agenda:--store' 'bookclub/agenda:--settings' 'bookclub/agenda:--color'
                set skip 1
            case 'bookclub/export:--format' 'bookclub/export:--output' 'bookclub/export:-o' 'bookclub/export:--store' 'bookclub/export:--settings' 'bookclub/export:--color'
                set skip 1
            case 'bookclub/log:--store' 'bookclub/log:--settings' 'bookclub/log:--color'
                set skip 1
            case 'bookclub/import:--read-column' 'bookclub/import:--date-read-column' 'bookclub/import:--store' 'bookclub/import:--settings' 'bookclub/import:--color'
                set skip 1
            case 'bookclub/stats:--year' 'bookclub/stats:--output' 'bookclub/stats:-o' 'bookclub/stats:--store' 'bookclub/stats:--settings' 'bookclub/stats:--color'
                set skip 1
            case 'bookclub/lookup:--store' 'bookclub/lookup:--settings' 'bookclub/lookup:--color'
                set skip 1
            case 'bookclub/cover:--store' 'bookclub/cover:--settings' 'bookclub/cover:--color'
                set skip 1
            case 'bookclub/covers:--limit' 'bookclub/covers:-n' 'bookclub/covers:--store' 'bookclub/covers:--settings' 'bookclub/covers:--color'
                set skip 1
            case 'bookclub/sync:--name' 'bookclub/sync:--store' 'bookclub/sync:--settings' 'bookclub/sync:--color'
                set skip 1
            case 'bookclub/completions:--store' 'bookclub/completions:--settings' 'bookclub/completions:--color'
                set skip 1
            case 'bookclub/manual:--store' 'bookclub/manual:--settings' 'bookclub/manual:--color'
                set skip 1
            case 'bookclub/club:--store' 'bookclub/club:--settings' 'bookclub/club:--color'
                set skip 1
            case 'bookclub/club/add:--description' 'bookclub/club/add:--store' 'bookclub/club/add:--settings' 'bookclub/club/add:--color'
                set skip 1
            case 'bookclub/club/list:--store' 'bookclub/club/list:--settings' 'bookclub/club/list:--color'
                set skip 1
            case 'bookclub/club/show:--store' 'bookclub/club/show:--settings' 'bookclub/club/show:--color'
                set skip 1
            case 'bookclub/club/rename:--store' 'bookclub/club/rename:--settings' 'bookclub/club/rename:--color'
                set skip 1
            case 'bookclub/club/remove:--store' 'bookclub/club/remove:--settings' 'bookclub/club/remove:--color'
                set skip 1
            case 'bookclub/club/meeting:--date' 'bookclub/club/meeting:--book' 'bookclub/club/meeting:--target' 'bookclub/club/meeting:--label' 'bookclub/club/meeting:--where' 'bookclub/club/meeting:--winner' 'bookclub/club/meeting:--store' 'bookclub/club/meeting:--settings' 'bookclub/club/meeting:--color'
                set skip 1
            case 'bookclub/club/meetings:--store' 'bookclub/club/meetings:--settings' 'bookclub/club/meetings:--color'
                set skip 1
            case 'bookclub/club/cancel:--store' 'bookclub/club/cancel:--settings' 'bookclub/club/cancel:--color'
                set skip 1
            case 'bookclub/club/share:--name' 'bookclub/club/share:--store' 'bookclub/club/share:--settings' 'bookclub/club/share:--color'
                set skip 1
            case 'bookclub/club/join:--founder' 'bookclub/club/join:--name' 'bookclub/club/join:--store' 'bookclub/club/join:--settings' 'bookclub/club/join:--color'
                set skip 1
            case 'bookclub/club/members:--store' 'bookclub/club/members:--settings' 'bookclub/club/members:--color'
                set skip 1
            case 'bookclub/club/admit:--store' 'bookclub/club/admit:--settings' 'bookclub/club/admit:--color'
                set skip 1
            case 'bookclub/club/host:--store' 'bookclub/club/host:--settings' 'bookclub/club/host:--color'
                set skip 1
            case 'bookclub/club/expel:--store' 'bookclub/club/expel:--settings' 'bookclub/club/expel:--color'
                set skip 1
            case 'bookclub/club/leave:--store' 'bookclub/club/leave:--settings' 'bookclub/club/leave:--color'
                set skip 1
            case 'bookclub/club/link:--club-book' 'bookclub/club/link:--store' 'bookclub/club/link:--settings' 'bookclub/club/link:--color'
                set skip 1
            case 'bookclub/club/post:--at' 'bookclub/club/post:--club-book' 'bookclub/club/post:--store' 'bookclub/club/post:--settings' 'bookclub/club/post:--color'
                set skip 1
            case 'bookclub/club/feed:--store' 'bookclub/club/feed:--settings' 'bookclub/club/feed:--color'
                set skip 1
            case 'bookclub/club/rsvp:--note' 'bookclub/club/rsvp:--store' 'bookclub/club/rsvp:--settings' 'bookclub/club/rsvp:--color'
                set skip 1
            case 'bookclub/club/poll:--option' 'bookclub/club/poll:--book' 'bookclub/club/poll:--closes' 'bookclub/club/poll:--store' 'bookclub/club/poll:--settings' 'bookclub/club/poll:--color'
                set skip 1
            case 'bookclub/club/vote:--store' 'bookclub/club/vote:--settings' 'bookclub/club/vote:--color'
                set skip 1
            case 'bookclub/club/polls:--store' 'bookclub/club/polls:--settings' 'bookclub/club/polls:--color'
                set skip 1
            case 'bookclub/club/close:--store' 'bookclub/club/close:--settings' 'bookclub/club/close:--color'
                set skip 1
            case 'bookclub/club/policy:--polls' 'bookclub/club/policy:--store' 'bookclub/club/policy:--settings' 'bookclub/club/policy:--color'
                set skip 1
            case 'bookclub/club/sync:--store' 'bookclub/club/sync:--settings' 'bookclub/club/sync:--color'
                set skip 1
            case 'bookclub/settings:--store' 'bookclub/settings:--settings' 'bookclub/settings:--color'
                set skip 1
            case 'bookclub/settings/list:--store' 'bookclub/settings/list:--settings' 'bookclub/settings/list:--color'
                set skip 1
            case 'bookclub/settings/get:--store' 'bookclub/settings/get:--settings' 'bookclub/settings/get:--color'
                set skip 1
            case 'bookclub/settings/set:--store' 'bookclub/settings/set:--settings' 'bookclub/settings/set:--color'
                set skip 1
            case 'bookclub/settings/reset:--store' 'bookclub/settings/reset:--settings' 'bookclub/settings/reset:--color'
                set skip 1
            case '*:-*'
            case '*'
                set n (math $n + 1)
        end
    end
    echo $cmd
    echo $n
end

function __bookclub_command_is
    set -l state (__bookclub_state)
    test "$state[1]" = "$argv[1]"
end

function __bookclub_argument_is
    set -l state (__bookclub_state)
    test "$state[1]" = "$argv[1]" -a "$state[2]" = "$argv[2]"
end

# Asks bookclub for titles or club names, passing on the files named on the command line.
function __bookclub_list
    set -l pass
    set -l skip
    for word in (commandline -opc)[2..-1]
        if set -q skip[1]
            set -a pass $skip=(string replace -r -- '^~' $HOME $word)
            set -e skip
            continue
        end
        switch $word
            case --store --settings
                set skip $word
            case '--store=*' '--settings=*'
                set -a pass $word
        end
    end
    bookclub completions $argv[1] $pass 2>/dev/null
end

complete -c bookclub -f
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'add' -d 'Add a book and print its id.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'list' -d 'List books, one line each, with a progress bar.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'ls' -d 'List books, one line each, with a progress bar.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'show' -d 'Show a book'\''s card and its progress history with notes.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'progress' -d 'Log how far you have read.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'highlight' -d 'Keep a passage you marked, for the next meeting.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'finish' -d 'Mark a book finished ("I'\''m Done").'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'unfinish' -d 'Resume a finished or abandoned book, so that you can log progress again.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'abandon' -d 'Stop reading a book without finishing it; its progress is kept.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'reread' -d 'Start a new reading of a finished or abandoned book; the old one keeps its history.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'edit' -d 'Change a book'\''s title, author, page count, ISBN, format, cover, tags, rating or review.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'remove' -d 'Delete a book and its history.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'rm' -d 'Delete a book and its history.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'notes' -d 'Print the notes to bring to the next meeting, as Markdown.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'select' -d 'Select the book that commands use when you name none, in this scene.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'undo' -d 'Revert the last command that changed your books or clubs.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'history' -d 'List the recent commands that changed your books or clubs, newest first; undo reverts them.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'doctor' -d 'Check the store, its history, settings and scenes; --fix repairs what it safely can.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'agenda' -d 'Upcoming meetings of every club, and where you stand against each one'\''s target.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'export' -d 'Write every book, reading, note and club out, for other tools or for safekeeping.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'log' -d 'Log a batch of reading events from standard input, all or nothing.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'import' -d 'Add the books of a Goodreads, StoryGraph or bookclub JSON export, a Calibre library, or an e-reader'\''s highlights.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'stats' -d 'Your reading in numbers: pages and books a month, pace, streaks and your yearly goal.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'lookup' -d 'Show what Open Library knows of an ISBN, without adding anything.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'cover' -d 'Show a book'\''s cover, fetched from Open Library by its ISBN the first time.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'covers' -d 'Fetch the covers of the books that have an ISBN and no cover yet.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'sync' -d 'Share your library with your other machines through a folder.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'completions' -d 'Print a completion script for bash, zsh or fish.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'manual' -d 'Print the manual page bookclub(1), in roff.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'club' -d 'Book clubs: their meetings, what to read by when.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'settings' -d 'Read and change settings.'
complete -c bookclub -n '__bookclub_command_is bookclub' -a 'help' -d 'Show subcommand help information.'
complete -c bookclub -n '__bookclub_command_is bookclub' -l store -r -F -d 'The store file (default: $BOOKCLUB_STORE, else $XDG_DATA_HOME/bookclub/store.json).'
complete -c bookclub -n '__bookclub_command_is bookclub' -l settings -r -F -d 'The settings file (default: $BOOKCLUB_SETTINGS, else $XDG_CONFIG_HOME/bookclub/settings.json).'
complete -c bookclub -n '__bookclub_command_is bookclub' -l quiet -s q -d 'Print only data and errors.'
complete -c bookclub -n '__bookclub_command_is bookclub' -l color -x -a 'auto always never' -d 'When to colour output.'
complete -c bookclub -n '__bookclub_command_is bookclub' -l no-color -d 'Never colour output (as --color never).'
complete -c bookclub -n '__bookclub_command_is bookclub' -l no-hooks -d 'Run no hooks for this command (as BOOKCLUB_NO_HOOKS=1).'
complete -c bookclub -n '__bookclub_command_is bookclub' -l no-pager -d 'Print output taller than the terminal as it is, not through a pager.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l author -s a -x -d 'Who wrote it.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l pages -s p -x -d 'How many pages it has; lets you log page numbers.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l isbn -x -d 'Its ISBN: Open Library fills in what you leave out (the title too) and its cover.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l cover -x -d 'The name of a cover image.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l tag -s t -x -d 'A tag; repeat for more.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l format -x -a 'print ebook audiobook' -d 'How you read it: print, ebook or audiobook.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l audio -d 'An audiobook: the same as --format audiobook.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l length -x -d 'An audiobook'\''s length: 11:40, 11h40m.'
complete -c bookclub -n '__bookclub_command_is bookclub/add' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l reading -d 'Only books being read.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l finished -d 'Only finished books.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l abandoned -d 'Only abandoned books.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l unstarted -d 'Only books not yet started.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l all -d 'Every book.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l tag -s t -x -d 'Only books with this tag.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l stars -d 'Show your rating of each book as stars.'
complete -c bookclub -n '__bookclub_command_is bookclub/list' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/show 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/show' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/progress 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/progress' -l note -x -d 'A note to keep with it.'
complete -c bookclub -n '__bookclub_command_is bookclub/progress' -l date -x -a 'today yesterday monday tuesday wednesday thursday friday saturday sunday' -d 'When it happened: today, friday, last friday 19:00, 2 days ago, -2d, 20 nov or 2026-11-20T19:00 (a day alone is noon; today is now).'
complete -c bookclub -n '__bookclub_command_is bookclub/progress' -l edit -s e -d 'Write the update in your editor.'
complete -c bookclub -n '__bookclub_command_is bookclub/progress' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/highlight 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/highlight' -l page -s p -x -d 'The page it is on.'
complete -c bookclub -n '__bookclub_command_is bookclub/highlight' -l note -x -d 'A note to keep with it.'
complete -c bookclub -n '__bookclub_command_is bookclub/highlight' -l date -x -a 'today yesterday monday tuesday wednesday thursday friday saturday sunday' -d 'When it happened: today, friday, last friday 19:00, 2 days ago, -2d, 20 nov or 2026-11-20T19:00 (a day alone is noon; today is now).'
complete -c bookclub -n '__bookclub_command_is bookclub/highlight' -l club -x -a '(__bookclub_list --clubs)' -d 'Share it with a shared club, hidden from members who have not read as far as you had.'
complete -c bookclub -n '__bookclub_command_is bookclub/highlight' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/finish 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/finish' -l date -x -a 'today yesterday monday tuesday wednesday thursday friday saturday sunday' -d 'When it happened: today, friday, last friday 19:00, 2 days ago, -2d, 20 nov or 2026-11-20T19:00 (a day alone is noon; today is now).'
complete -c bookclub -n '__bookclub_command_is bookclub/finish' -l note -x -d 'A note to keep with it.'
complete -c bookclub -n '__bookclub_command_is bookclub/finish' -l rating -x -d 'Your rating, 0 to 5 in quarters (4.5, 3.75).'
complete -c bookclub -n '__bookclub_command_is bookclub/finish' -l review -x -d 'Your review.'
complete -c bookclub -n '__bookclub_command_is bookclub/finish' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/unfinish 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/unfinish' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/abandon 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/abandon' -l date -x -a 'today yesterday monday tuesday wednesday thursday friday saturday sunday' -d 'When it happened: today, friday, last friday 19:00, 2 days ago, -2d, 20 nov or 2026-11-20T19:00 (a day alone is noon; today is now).'
complete -c bookclub -n '__bookclub_command_is bookclub/abandon' -l note -x -d 'A note to keep with it.'
complete -c bookclub -n '__bookclub_command_is bookclub/abandon' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/reread 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/reread' -l format -x -a 'print ebook audiobook' -d 'How you read it: print, ebook or audiobook.'
complete -c bookclub -n '__bookclub_command_is bookclub/reread' -l audio -d 'An audiobook: the same as --format audiobook.'
complete -c bookclub -n '__bookclub_command_is bookclub/reread' -l length -x -d 'An audiobook'\''s length: 11:40, 11h40m.'
complete -c bookclub -n '__bookclub_command_is bookclub/reread' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/edit 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l title -x -d 'A new title.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l author -s a -x -d 'A new author.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l pages -s p -x -d 'A new page count.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l isbn -x -d 'A new ISBN.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l cover -x -d 'A new cover image name.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l format -x -a 'print ebook audiobook' -d 'How you read it: print, ebook or audiobook.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l length -x -d 'An audiobook'\''s length: 11:40, 11h40m.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l add-tag -x -d 'A tag to add; repeat for more.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l remove-tag -x -d 'A tag to remove; repeat for more.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l rating -x -d 'Your rating, 0 to 5 in quarters (4.5, 3.75).'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l review -x -d 'Your review.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l refresh -d 'Ask Open Library again about the book'\''s ISBN and fill its empty fields and cover.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l replace -d 'With --refresh: Open Library'\''s title, author and pages replace yours.'
complete -c bookclub -n '__bookclub_command_is bookclub/edit' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/remove 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/remove' -l yes -s y -d 'Do not ask.'
complete -c bookclub -n '__bookclub_command_is bookclub/remove' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/notes 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/notes' -l club -x -a '(__bookclub_list --clubs)' -d 'The notes for a club'\''s meeting.'
complete -c bookclub -n '__bookclub_command_is bookclub/notes' -l meeting -x -a '(__bookclub_list --meetings)' -d 'With --club: next (the default), a meeting id, or its date.'
complete -c bookclub -n '__bookclub_command_is bookclub/notes' -l output -s o -r -F -d 'Write the notes to this file instead of standard output.'
complete -c bookclub -n '__bookclub_command_is bookclub/notes' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/select 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/select' -l club -x -a '(__bookclub_list --clubs)' -d 'Select a club: commands that take a book use its current book, and agenda and notes use the club.'
complete -c bookclub -n '__bookclub_command_is bookclub/select' -l clear -d 'Select nothing.'
complete -c bookclub -n '__bookclub_command_is bookclub/select' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/undo' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/history' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/doctor' -l fix -d 'Repair what can be repaired without losing anything.'
complete -c bookclub -n '__bookclub_command_is bookclub/doctor' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/agenda' -l days -x -d 'How many days ahead to look.'
complete -c bookclub -n '__bookclub_command_is bookclub/agenda' -l club -x -a '(__bookclub_list --clubs)' -d 'Only this club'\''s meetings.'
complete -c bookclub -n '__bookclub_command_is bookclub/agenda' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/export' -l format -x -a 'json csv markdown' -d 'What to write.'
complete -c bookclub -n '__bookclub_command_is bookclub/export' -l output -s o -r -F -d 'Write to this file instead of standard output.'
complete -c bookclub -n '__bookclub_command_is bookclub/export' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/log' -l stdin -d 'Read the events from standard input (required).'
complete -c bookclub -n '__bookclub_command_is bookclub/log' -l skip-invalid -d 'Log the valid lines and report the others, rather than rejecting the batch.'
complete -c bookclub -n '__bookclub_command_is bookclub/log' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/import 0' -a 'goodreads storygraph json calibre kindle koreader kobo libby'
complete -c bookclub -n '__bookclub_argument_is bookclub/import 1' -F
complete -c bookclub -n '__bookclub_command_is bookclub/import' -l dry-run -s n -d 'List what would be imported, and change nothing.'
complete -c bookclub -n '__bookclub_command_is bookclub/import' -l columns -d 'For calibre: list the library'\''s custom columns, and import nothing.'
complete -c bookclub -n '__bookclub_command_is bookclub/import' -l read-column -x -d 'For calibre: a yes/no custom column (#read) whose yes finishes a book.'
complete -c bookclub -n '__bookclub_command_is bookclub/import' -l date-read-column -x -d 'For calibre: a date custom column: the day each book was finished.'
complete -c bookclub -n '__bookclub_command_is bookclub/import' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/stats' -l year -x -d 'The year to report, from 1900 to 9999 (default: this year).'
complete -c bookclub -n '__bookclub_command_is bookclub/stats' -l html -d 'Write the year as one HTML page, with charts, to look at and share.'
complete -c bookclub -n '__bookclub_command_is bookclub/stats' -l output -s o -r -F -d 'With --html, write the page to this file instead of standard output.'
complete -c bookclub -n '__bookclub_command_is bookclub/stats' -l open -d 'With --html, open the page in your browser (xdg-open or open).'
complete -c bookclub -n '__bookclub_command_is bookclub/stats' -l no-covers -d 'With --html, leave the covers out.'
complete -c bookclub -n '__bookclub_command_is bookclub/stats' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/lookup' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/cover 0' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/cover' -l path -d 'Print the cover'\''s file path, even on a terminal that draws images.'
complete -c bookclub -n '__bookclub_command_is bookclub/cover' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/covers' -l limit -s n -x -d 'Fetch at most this many covers this time.'
complete -c bookclub -n '__bookclub_command_is bookclub/covers' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/sync 0' -a 'init status'
complete -c bookclub -n '__bookclub_command_is bookclub/sync' -l name -x -d 'With init: a name for this machine (laptop, desk).'
complete -c bookclub -n '__bookclub_command_is bookclub/sync' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/completions 0' -a 'bash fish zsh'
complete -c bookclub -n '__bookclub_command_is bookclub/completions' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/manual' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'add' -d 'Add a book club and print its id.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'list' -d 'List the clubs with their next meeting.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'show' -d 'Show a club, its current book and its meetings.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'rename' -d 'Rename a club.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'remove' -d 'Delete a club and its meetings; the books stay.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'rm' -d 'Delete a club and its meetings; the books stay.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'meeting' -d 'Plan a meeting: when, which book, how far to read, where.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'meetings' -d 'List upcoming meetings, of one club or of all; or print them as an iCalendar file.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'cancel' -d 'Cancel a meeting.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'share' -d 'Share a club through a folder, as its founder.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'join' -d 'Ask to join a club shared through a folder.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'members' -d 'List a shared club'\''s members, their keys and state.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'admit' -d 'Admit a member who asked to join (hosts only).'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'host' -d 'Make a member a host (hosts only).'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'expel' -d 'Remove a member from a shared club (hosts only).'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'leave' -d 'Leave a shared club: publish nothing more to it.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'link' -d 'Link your copy of a shared club'\''s book.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'post' -d 'Post a note to a shared club, hidden until read that far.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'feed' -d 'What members shared that you have read far enough to see.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'rsvp' -d 'Say whether you are coming to a shared club'\''s meeting.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'poll' -d 'Open a poll in a shared club: one choice, ranked or approval.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'vote' -d 'Vote in a shared club'\''s poll; vote again to change your ballot.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'polls' -d 'List a shared club'\''s polls: open ones with your ballot, closed ones with their count.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'close' -d 'Close a shared club'\''s poll and print its count.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'policy' -d 'Show or set a shared club'\''s policy: who may open polls.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'sync' -d 'Sync shared clubs now.'
complete -c bookclub -n '__bookclub_command_is bookclub/club' -a 'help' -d 'Show subcommand help information.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/add' -l description -x -d 'What the club is about.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/add' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/list' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/show 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/show' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/rename 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/rename' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/remove 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/remove' -l yes -s y -d 'Do not ask.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/remove' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/meeting 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meeting' -l date -x -a 'today yesterday monday tuesday wednesday thursday friday saturday sunday' -d 'When: thursday 19:00, next thursday 7pm, dec 3 19:00, in 2 weeks, 2026-12-03T19:00 (required).'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meeting' -l book -x -a '(__bookclub_list --titles)' -d 'The book to discuss.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meeting' -l target -x -d 'How far to read by then: a page (250), a percent (40%), or in an audiobook a time (4:30).'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meeting' -l label -x -d 'The target in words, e.g. "chapters 1-12".'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meeting' -l where -x -d 'A place or a link.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meeting' -l winner -x -d 'The book that won a closed poll of the shared club (its id, or last); added when missing.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meeting' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/meetings 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meetings' -l past -d 'Include past meetings.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meetings' -l ics -d 'Print the club'\''s meetings as iCalendar (RFC 5545), for a calendar application.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/meetings' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/cancel 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/cancel 1' -a '(__bookclub_list --meetings)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/cancel' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/share 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/share' -l name -x -d 'The name the club knows you by (default: your login name).'
complete -c bookclub -n '__bookclub_command_is bookclub/club/share' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/join' -l founder -x -d 'The founder'\''s key fingerprint (SHA256:…), as they gave it; needed when not asked on a terminal.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/join' -l name -x -d 'The name the club knows you by (default: your login name).'
complete -c bookclub -n '__bookclub_command_is bookclub/club/join' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/members 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/members' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/admit 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/admit' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/host 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/host' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/expel 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/expel' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/leave 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/leave' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/link 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/link 1' -a '(__bookclub_list --titles)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/link' -l club-book -x -d 'The club'\''s book, by words of its title (default: the next meeting'\''s).'
complete -c bookclub -n '__bookclub_command_is bookclub/club/link' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/post 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/post' -l at -x -d 'The furthest place it may reveal: a page, a percent, or target (the next meeting'\''s); default: where you are.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/post' -l club-book -x -d 'The club'\''s book, by words of its title (default: the next meeting'\''s).'
complete -c bookclub -n '__bookclub_command_is bookclub/club/post' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/feed 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/feed' -l spoilers -d 'Show every post, however far you have read.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/feed' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/rsvp 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/rsvp 1' -a '(__bookclub_list --meetings)'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/rsvp 2' -a 'yes no maybe'
complete -c bookclub -n '__bookclub_command_is bookclub/club/rsvp' -l note -x -d 'A word for the others ("running late").'
complete -c bookclub -n '__bookclub_command_is bookclub/club/rsvp' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/poll 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/poll' -l option -x -d 'An option in words; repeat for more.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/poll' -l book -x -a '(__bookclub_list --titles)' -d 'A book of your library as an option (with its ISBN, so that it can become the next book).'
complete -c bookclub -n '__bookclub_command_is bookclub/club/poll' -l ranked -d 'Members rank the options; counted by instant runoff.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/poll' -l approval -d 'Members approve any number of options; most approvals win.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/poll' -l closes -x -a 'today yesterday monday tuesday wednesday thursday friday saturday sunday' -d 'When voting ends unless a host closes it first: friday 20:00, in 1 week, 2026-12-03T19:00.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/poll' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/vote 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/vote' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/polls 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/polls' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/close 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/close' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/policy 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/policy' -l polls -x -a 'hosts members' -d 'Who may open polls (and close their own): hosts or members.'
complete -c bookclub -n '__bookclub_command_is bookclub/club/policy' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/club/sync 0' -a '(__bookclub_list --clubs)'
complete -c bookclub -n '__bookclub_command_is bookclub/club/sync' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_command_is bookclub/settings' -a 'list' -d 'List every setting with its value, default and description.'
complete -c bookclub -n '__bookclub_command_is bookclub/settings' -a 'get' -d 'Print the value of a setting.'
complete -c bookclub -n '__bookclub_command_is bookclub/settings' -a 'set' -d 'Change a setting.'
complete -c bookclub -n '__bookclub_command_is bookclub/settings' -a 'reset' -d 'Put a setting, or every setting, back to its default.'
complete -c bookclub -n '__bookclub_command_is bookclub/settings' -a 'help' -d 'Show subcommand help information.'
complete -c bookclub -n '__bookclub_command_is bookclub/settings/list' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/settings/get 0' -a 'updateArtwork syncProgress syncFolder color lockTimeout hookTimeout yearlyGoal contact networkTimeout coverSizeLimit answerSizeLimit clubProgress clubKey'
complete -c bookclub -n '__bookclub_command_is bookclub/settings/get' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/settings/set 0' -a 'updateArtwork syncProgress syncFolder color lockTimeout hookTimeout yearlyGoal contact networkTimeout coverSizeLimit answerSizeLimit clubProgress clubKey'
complete -c bookclub -n '__bookclub_argument_is bookclub/settings/set 1; and test (commandline -opc)[-1] = clubProgress' -a 'exact target off'
complete -c bookclub -n '__bookclub_argument_is bookclub/settings/set 1; and test (commandline -opc)[-1] = color' -a 'auto always never'
complete -c bookclub -n '__bookclub_argument_is bookclub/settings/set 1; and test (commandline -opc)[-1] = syncProgress' -a 'true false'
complete -c bookclub -n '__bookclub_argument_is bookclub/settings/set 1; and test (commandline -opc)[-1] = updateArtwork' -a 'true false'
complete -c bookclub -n '__bookclub_command_is bookclub/settings/set' -l json -d 'Print the result as JSON.'
complete -c bookclub -n '__bookclub_argument_is bookclub/settings/reset 0' -a 'updateArtwork syncProgress syncFolder color lockTimeout hookTimeout yearlyGoal contact networkTimeout coverSizeLimit answerSizeLimit clubProgress clubKey'
complete -c bookclub -n '__bookclub_command_is bookclub/settings/reset' -l all -d 'Reset every setting.'
complete -c bookclub -n '__bookclub_command_is bookclub/settings/reset' -l json -d 'Print the result as JSON.'
complete -c bookclub -n 'not __bookclub_command_is bookclub' -l store -r -F -d 'The store file (default: $BOOKCLUB_STORE, else $XDG_DATA_HOME/bookclub/store.json).'
complete -c bookclub -n 'not __bookclub_command_is bookclub' -l settings -r -F -d 'The settings file (default: $BOOKCLUB_SETTINGS, else $XDG_CONFIG_HOME/bookclub/settings.json).'
complete -c bookclub -n 'not __bookclub_command_is bookclub' -l quiet -s q -d 'Print only data and errors.'
complete -c bookclub -n 'not __bookclub_command_is bookclub' -l color -x -a 'auto always never' -d 'When to colour output.'
complete -c bookclub -n 'not __bookclub_command_is bookclub' -l no-color -d 'Never colour output (as --color never).'
complete -c bookclub -n 'not __bookclub_command_is bookclub' -l no-hooks -d 'Run no hooks for this command (as BOOKCLUB_NO_HOOKS=1).'
complete -c bookclub -n 'not __bookclub_command_is bookclub' -l no-pager -d 'Print output taller than the terminal as it is, not through a pager.'
complete -c bookclub -l version -d 'Show the version.'
complete -c bookclub -s h -l help -d 'Show help information.'
